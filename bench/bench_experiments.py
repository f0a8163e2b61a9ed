"""A report of one experiment in a database of many: does its time grow with the others?

    python bench/bench_experiments.py [--runs 1 16 64] [--trace fixtures/demo] [--repeat 3]

Loads the trace (default the shipped 4-rank demo) N times into one database (``load_runs``,
one experiment per copy), then times ``report.run`` of the whole catalog, evaluated afresh,
on the middle experiment, in this process (best of ``--repeat``), and prints the seconds
and their ratio to the database of one run. A report reads only its experiment's files
where it can (``database.experiments_only``); what still reads every experiment's files
(the views of the views file) makes the ratio exceed 1.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "bench"))

import host_capacity  # noqa: E402

from cosydb import report  # noqa: E402
from cosydb.loading import load_runs  # noqa: E402


def report_seconds(db: Path, experiment: str, repeat: int) -> float:
    """The best of ``repeat`` whole-catalog reports of ``experiment``, evaluated afresh."""
    best = float("inf")
    for _ in range(repeat):
        started = time.perf_counter()
        report.run(db, experiment=experiment, fresh=True)
        best = min(best, time.perf_counter() - started)
    return best


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, nargs="+", default=[1, 16, 64])
    parser.add_argument("--trace", type=Path, default=ROOT / "fixtures" / "demo")
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    print(host_capacity.line(), flush=True)
    alone = None
    with tempfile.TemporaryDirectory(prefix="cosydb-bench-experiments-") as scratch:
        for n in args.runs:
            db = Path(scratch) / f"runs{n}.cosydb"
            started = time.perf_counter()
            load_runs([args.trace] * n, db, [f"run{k}" for k in range(1, n + 1)])
            loaded = time.perf_counter() - started
            seconds = report_seconds(db, f"run{n // 2 + 1}", args.repeat)
            alone = alone or seconds
            print(
                f"{n:4d} experiments: load {loaded:6.2f} s ({loaded / n:.2f} s a run), "
                f"report of one {seconds:.3f} s, {seconds / alone:.2f} x that of a database of {args.runs[0]}",
                flush=True,
            )
    print(host_capacity.line())


if __name__ == "__main__":
    main()
