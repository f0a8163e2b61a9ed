"""How many cores' worth of work this machine gives two processes at once.

    python bench/host_capacity.py

2.00 means two free cores; less, that something else is using them (at stop 59 a stray
process holding one core made it 1.23-1.32, and every time measured then longer;
docs/performance.md). Every time and ratio of a bench run (cosydb against scout, Spark
against DuckDB) depends on it, so the benches print it before and after their numbers.
The job is CPU-bound DuckDB work on one thread (a sum of hashes over a range), the same
in every process.
"""

from __future__ import annotations

import subprocess
import sys
import time

#: One thread hashing this many integers takes about a second here.
ROWS = 120_000_000
JOB = (
    "import duckdb; c = duckdb.connect(); c.execute('SET threads = 1'); c.execute('SET enable_progress_bar = false'); "
    f"c.sql('SELECT sum(hash(range)) FROM range({ROWS})').fetchall()"
)


def _jobs(n: int) -> float:
    """Wall seconds until ``n`` copies of the job, started together, have all ended."""
    started = time.perf_counter()
    procs = [subprocess.Popen([sys.executable, "-c", JOB]) for _ in range(n)]
    for proc in procs:
        if proc.wait() != 0:
            raise SystemExit(f"host_capacity: the probe job failed (exit {proc.returncode})")
    return time.perf_counter() - started


def cores_worth(repeats: int = 3) -> float:
    """Work done by two jobs at once in units of one job alone (2.0: two full cores; 1.0:
    one core shared), from the best of ``repeats`` timings of each."""
    _jobs(1)  # warm the file cache and DuckDB's import
    one = min(_jobs(1) for _ in range(repeats))
    two = min(_jobs(2) for _ in range(repeats))
    return 2 * one / two


def line() -> str:
    return f"host: two single-threaded jobs at once did {cores_worth():.2f} cores' worth of work (2.00: two full cores)"


if __name__ == "__main__":
    print(line())
