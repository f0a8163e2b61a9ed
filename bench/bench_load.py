"""Benchmark ``cosydb load`` and the enhancement views on large traces.

    python bench/bench_load.py                       # 1M, 10M and 30M synthetic events
    python bench/bench_load.py --events 1000000      # one size
    python bench/bench_load.py --real ../shared/traces/large/minife-16-large.tar.xz   # that trace only
    python bench/bench_load.py --events 10000000 100000000 --ranks 1024 --skip-bare --skip-views --skip-entries
    python bench/bench_load.py --events 9300000:27 --repeat 2   # 27 ranks; scout and the commands twice

For every trace it prints: the time of ``otf2-print`` on it (the OTF2 library's own
decoder, Debian package ``otf2-tools``: the yardstick of issue 16, where load + report
must stay within 2.5 x), the bare single-process iteration rate of the
``otf2`` Python reader, the load rate and its ratio to that,
seconds per load phase, peak RSS, the seconds each enhancement view
takes to compute over the whole trace, the seconds of ``cosydb report``
over the whole property catalog, and the wall time of ``cosydb report
--threshold 0.01`` asked again (process start included: it reads the stored
results; issue 42: <= 1 s at 10M events), and, side by side, the wall time of the commands
``cosydb load`` + ``cosydb report --fresh`` (two commands; and ``cosydb load --report``, one,
also as a user's first load: no views file kept to reuse) and of Scalasca 2.6's ``scout`` on the same
trace (issue 42: <= 1.0 x; scout from SCALASCA_PREFIX, run by RUN_SCOUT, else not
measured; stopped after --scout-timeout seconds or above --scout-max-rss MiB, with its
peak RSS either way;
``--skip-commands`` leaves the commands out; ``--repeat N`` runs scout and the commands N
times, interleaved, and the summary gives their ranges), and the
load's events/s at each synthetic size against the next smaller one of as many ranks. Every measurement runs in a fresh
process so peak RSS is the measured step's own. Traces and databases are
kept in --workdir and reused (delete it to regenerate).
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import shutil
import signal
import subprocess
import sys
import tarfile
import tempfile
import time
from pathlib import Path

import host_capacity  # bench/ is the script's directory

HERE = Path(__file__).resolve().parent
#: the cosydb command of the Python running the bench
COSYDB = str(Path(sys.executable).with_name("cosydb"))

#: Views (and one call of each macro) timed over the whole experiment.
VIEWS = (
    "region_events",
    "enterptr",
    "instance_tree",
    "instance_paths",
    "callpaths",
    "region_instances",
    "event_calls",
    "messages",
    "collective_instances",
    "mpi_summary",
    "counter_summary",
)
MACRO_CALLS = {
    "region_stack": "SELECT * FROM region_stack(1, {loc}, {tick})",
    "message_queue": "SELECT * FROM message_queue(1, 0, 1, {tick})",
}


def _peak_rss_mib() -> dict:
    """Peak RSS of this process and of its largest child (workers), in MiB."""
    own = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    children = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024
    return dict(rss_mib=own, child_rss_mib=children)


# -- child steps (each runs in its own process) ---------------------------------
def child_bare(anchor: str) -> dict:
    import otf2

    started = time.perf_counter()
    count = 0
    with otf2.reader.open(anchor) as trace:
        for _location, _event in trace.events:
            count += 1
    return dict(events=count, seconds=time.perf_counter() - started, **_peak_rss_mib())


def child_load(anchor: str, db: str) -> dict:
    from cosydb.loading import load

    started = time.perf_counter()
    meta = load(anchor, db)
    return dict(
        events=meta["number_of_events"],
        seconds=time.perf_counter() - started,
        phase_seconds=meta["phase_seconds"],
        partitions=meta["partitions"],
        **_peak_rss_mib(),
    )


def child_view(db: str, name: str) -> dict:
    from cosydb import database

    con = database.connect(db)
    if name in MACRO_CALLS:
        loc, tick = con.execute(
            "SELECT location_id, quantile_disc(time, 0.5) FROM events GROUP BY 1 ORDER BY 1 LIMIT 1"
        ).fetchone()
        query = MACRO_CALLS[name].format(loc=loc, tick=tick)
    else:
        query = f"SELECT * FROM {name}"
    started = time.perf_counter()
    rows = con.execute(f"CREATE TEMP TABLE result AS {query}").fetchone()[0]
    return dict(rows=rows, seconds=time.perf_counter() - started, **_peak_rss_mib())


def child_report(db: str) -> dict:
    from cosydb.report import run

    started = time.perf_counter()
    result = run(db, threshold=0)
    return dict(rows=len(result["results"]), seconds=time.perf_counter() - started, **_peak_rss_mib())


def child_entries(db: str) -> dict:
    """The seconds of each catalog entry (and shared view) in one evaluation of the catalog,
    under the report's DuckDB budget as ``cosydb report`` runs it."""
    from cosydb import catalog, database, evaluator, resources

    con = database.connect(db)
    resources.apply(con, default_memory=resources.REPORT_MEMORY_LIMIT)
    evaluation = evaluator.evaluate(con, catalog.load(), 1)
    con.close()
    return dict(seconds=evaluation.seconds)


def report_again_seconds(db: Path) -> float:
    """Wall-clock seconds of the command ``cosydb report DB --threshold 0.01`` after a report
    with the same catalog and parameters: it reads the stored results."""
    started = time.perf_counter()
    subprocess.run(
        [COSYDB, "report", str(db), "--threshold", "0.01"],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        check=True,
    )
    return time.perf_counter() - started


def otf2_print_seconds(anchor: Path) -> float | None:
    """Wall-clock seconds of ``otf2-print`` decoding every event of the trace (None if the
    tool is not installed)."""
    tool = shutil.which("otf2-print")
    if tool is None:
        return None
    started = time.perf_counter()
    subprocess.run([tool, str(anchor)], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=True)
    return time.perf_counter() - started


#: Scalasca's scout run by the workplace's script (one MPI process per rank, the hybrid
#: variant for MPI+OpenMP traces): RUN_SCOUT, default ../shared/tools/run_scout.sh
RUN_SCOUT = Path(os.environ.get("RUN_SCOUT", HERE.parents[1] / "shared" / "tools" / "run_scout.sh"))


def scout_seconds(anchor: Path, workdir: Path, timeout: float, max_rss_mib: float) -> tuple[float | None, str, float]:
    """Wall-clock seconds of Scalasca 2.6's ``scout`` (its full analysis: wait states, root
    causes, critical path; mpirun included) on the trace, as installed at SCALASCA_PREFIX
    (``build_scout.sh``), what it did and the peak RSS (MiB) of all its processes (sampled):
    ``"ran"``, ``"not measured ..."`` (no SCALASCA_PREFIX or RUN_SCOUT: seconds None),
    ``"failed ..."`` with its exit code and last line of output, or ``"stopped ..."`` after
    ``timeout`` seconds or above ``max_rss_mib`` of memory (before the kernel's OOM killer
    stops it, or the bench), with the scout processes it had started by then."""
    if not os.environ.get("SCALASCA_PREFIX") or not RUN_SCOUT.is_file():
        return None, "not measured (set SCALASCA_PREFIX to build_scout.sh's install)", 0.0
    out = workdir / f"scout-{anchor.parent.name}"
    shutil.rmtree(out, ignore_errors=True)
    started = time.perf_counter()
    with tempfile.TemporaryFile("w+") as stderr:
        with subprocess.Popen(
            ["bash", str(RUN_SCOUT), str(anchor), str(out)],
            stdout=subprocess.DEVNULL,
            stderr=stderr,
        ) as proc:
            peak = scouts = 0
            while proc.poll() is None and time.perf_counter() - started < timeout and peak <= max_rss_mib * 2**20:
                pids = _tree(proc.pid)  # once per sample: 1,024 scout processes at 1,024 ranks
                peak = max(peak, _rss_bytes(pids))
                scouts = max(scouts, _count(pids, "scout"))
                time.sleep(0.2)
            seconds = time.perf_counter() - started
            if proc.poll() is None:
                _kill(_tree(proc.pid))  # mpirun starts each rank in a process group of its own
                proc.wait()
                why = "--scout-timeout" if peak <= max_rss_mib * 2**20 else "--scout-max-rss"
                return (
                    seconds,
                    f"stopped after {seconds:.0f} s ({why}), {scouts} scout processes running, "
                    f"peak RSS {peak / 2**20:,.0f} MiB",
                    peak / 2**20,
                )
        stderr.seek(0)
        said = (stderr.read().strip() or "no output").splitlines()[-1]
    if proc.returncode == 0:
        return seconds, "ran", peak / 2**20
    return seconds, f"failed after {seconds:.1f} s (exit {proc.returncode}: {said})", peak / 2**20


def commands_seconds(anchor: Path, db: Path) -> tuple[float, float, float]:
    """Wall-clock seconds of the commands ``cosydb load`` and ``cosydb report --fresh`` as a
    user runs them (process start included), of the one command ``cosydb load --report``
    that does both: what scout is measured against; and of that one command as a user's
    first load, no views file kept yet (``COSYDB_CACHE_DIR`` empty; the others find the one
    the bench's earlier loads of the trace kept, as a user's later loads do)."""

    def run(*args: str, env: dict | None = None) -> float:
        started = time.perf_counter()
        subprocess.run([COSYDB, *args], capture_output=True, check=True, env=env)
        return time.perf_counter() - started

    load = ("load", str(anchor), "--db", str(db), "--quiet")
    shutil.rmtree(db, ignore_errors=True)
    two = run(*load) + run("report", str(db), "--fresh")
    shutil.rmtree(db)
    one = run(*load, "--report")
    shutil.rmtree(db)
    with tempfile.TemporaryDirectory() as nothing_kept:
        first = run(*load, "--report", env=os.environ | {"COSYDB_CACHE_DIR": nothing_kept})
    return two, one, first


def _tree(pid: int) -> list[int]:
    """A process and all its descendants, from /proc (Linux)."""
    found, todo = [], [pid]
    while todo:
        p = todo.pop()
        try:
            for task in Path(f"/proc/{p}/task").iterdir():
                todo += [int(c) for c in (task / "children").read_text().split()]
            found.append(p)
        except (FileNotFoundError, ProcessLookupError):
            pass
    return found


def _kill(pids: list[int]) -> None:
    """SIGKILL to processes ``pids`` (those gone already are skipped)."""
    for p in pids:
        try:
            os.kill(p, signal.SIGKILL)
        except ProcessLookupError:
            pass


def _rss_bytes(pids: list[int]) -> int:
    """Resident memory of processes ``pids``."""
    total, page = 0, os.sysconf("SC_PAGE_SIZE")
    for p in pids:
        try:
            total += int(Path(f"/proc/{p}/statm").read_text().split()[1]) * page
        except (FileNotFoundError, ProcessLookupError):
            pass
    return total


def _tree_rss_bytes(pid: int) -> int:
    """Resident memory of a process and all its descendants."""
    return _rss_bytes(_tree(pid))


def _count(pids: list[int], prefix: str) -> int:
    """How many of processes ``pids`` run a program whose name starts with ``prefix``."""
    count = 0
    for p in pids:
        try:
            count += Path(f"/proc/{p}/comm").read_text().startswith(prefix)
        except (FileNotFoundError, ProcessLookupError):
            pass
    return count


def _child(*args, script: str = __file__) -> dict:
    """Run one step of ``script`` (``script --child step args``) in a fresh process; adds the
    peak RSS of its whole process tree (sampled)."""
    with subprocess.Popen(
        [sys.executable, script, "--child", *args], text=True, stdout=subprocess.PIPE, stderr=subprocess.PIPE
    ) as proc:
        peak = 0
        while proc.poll() is None:
            peak = max(peak, _tree_rss_bytes(proc.pid))
            time.sleep(0.02)
        stdout, stderr = proc.communicate()
    if proc.returncode != 0:
        raise SystemExit(f"bench step {args} failed:\n{stderr}")
    return dict(json.loads(stdout.strip().splitlines()[-1]), tree_rss_mib=peak / 2**20)


# -- traces -------------------------------------------------------------------
def synthetic(workdir: Path, events: int, ranks: int) -> Path:
    """The synthetic trace of ``events`` events over ``ranks`` ranks in ``workdir``, written by a
    process of its own if it is not there: a measured step forked from this one would inherit
    the generator's peak RSS as its own (Linux keeps ru_maxrss across fork and exec)."""
    directory = workdir / f"synthetic-{events}-{ranks}ranks"
    anchor = directory / "traces.otf2"
    if not anchor.exists():
        shutil.rmtree(directory, ignore_errors=True)
        started = time.perf_counter()
        subprocess.run(
            [sys.executable, str(HERE / "synthetic_trace.py"), str(directory), str(ranks), str(events)],
            check=True,
            stdout=subprocess.DEVNULL,
        )
        print(f"generated {directory} in {time.perf_counter() - started:.1f} s", flush=True)
    return anchor


def unpacked(workdir: Path, archive: Path) -> Path:
    directory = workdir / archive.name.split(".")[0]
    if not directory.exists():
        with tarfile.open(archive) as tar:
            tar.extractall(directory, filter="data")
    return next(directory.rglob("traces.otf2"))


# -- report -------------------------------------------------------------------
def bench_trace(anchor: Path, workdir: Path, args: argparse.Namespace) -> dict:
    label = anchor.parent.name
    print(f"\n== {label} ({anchor})", flush=True)
    db = workdir / f"{label}.cosydb"
    shutil.rmtree(db, ignore_errors=True)
    load = _child("load", str(anchor), str(db))
    events = load["events"]
    rate = events / load["seconds"]
    if not args.skip_bare:
        bare = _child("bare", str(anchor))
        assert bare["events"] == events, (bare["events"], events)
        bare_rate = events / bare["seconds"]
        print(
            f"bare otf2 iteration : {bare['seconds']:8.2f} s  {bare_rate:12,.0f} events/s  "
            f"peak RSS {bare['rss_mib']:.0f} MiB"
        )
    print(
        f"cosydb load         : {load['seconds']:8.2f} s  {rate:12,.0f} events/s  "
        f"peak RSS {load['tree_rss_mib']:.0f} MiB (all processes, sampled every 20 ms; "
        f"main {load['rss_mib']:.0f} MiB, largest worker {load['child_rss_mib']:.0f} MiB)"
    )
    if not args.skip_bare:
        print(f"ratio load / bare   : {rate / bare_rate:8.2f} x")
    phases = load["phase_seconds"]
    print(
        "load phases         : "
        + ", ".join(f"{k} {v:.2f} s" for k, v in phases.items() if ":" not in k)
        + f" ({load['partitions']} location partition{'s' if load['partitions'] != 1 else ''})"
    )
    print(
        "derived tables      : " + ", ".join(f"{k[7:]} {v:.2f} s" for k, v in phases.items() if k.startswith("derive:"))
    )
    print(f"{'view':22} {'seconds':>8} {'rows':>12} {'peak RSS MiB':>13}")
    for name in () if args.skip_views else (*VIEWS, *MACRO_CALLS):
        result = _child("view", str(db), name)
        print(f"{name:22} {result['seconds']:8.2f} {result['rows']:12,} {result['rss_mib']:13.0f}", flush=True)
    result = _child("report", str(db))
    print(
        f"cosydb report (whole catalog): {result['seconds']:.2f} s, {result['rows']:,} rows listed, "
        f"peak RSS {result['tree_rss_mib']:.0f} MiB",
        flush=True,
    )
    again = report_again_seconds(db)
    print(f"cosydb report again (--threshold 0.01, the stored results read): {again:.2f} s wall", flush=True)
    if not args.skip_entries:
        entries = _child("entries", str(db))["seconds"]
        top = sorted(entries.items(), key=lambda kv: -kv[1])[:8]
        print(
            f"report's costliest entries ({sum(entries.values()):.2f} s in all): "
            + ", ".join(f"{name} {s:.2f} s" for name, s in top)
        )
    yardstick = otf2_print_seconds(anchor)
    total = load["seconds"] + result["seconds"]
    if yardstick is None:
        print("otf2-print          : not installed (apt-get install otf2-tools) - no ratio")
    else:
        print(
            f"otf2-print          : {yardstick:8.2f} s  {events / yardstick:12,.0f} events/s\n"
            f"load + report       : {total:8.2f} s = {total / yardstick:.2f} x otf2-print (issue 16: <= 2.5 x)",
            flush=True,
        )
    # scout and the commands side by side, --repeat times interleaved; the commands not where
    # scout failed or was stopped (no ratio)
    scout, commands, one_command, first_load, scout_rss = [], [], [], [], 0.0
    for repetition in range(args.repeat):
        if args.repeat > 1:
            print(f"-- side by side, repetition {repetition + 1} of {args.repeat}", flush=True)
        seconds, scout_outcome, rss = scout_seconds(anchor, workdir, args.scout_timeout, args.scout_max_rss)
        scout_rss = max(scout_rss, rss)
        if scout_outcome != "ran":
            print(f"scout               : {scout_outcome}", flush=True)
            if scout_outcome.startswith(("failed", "stopped")):
                break
        else:
            scout.append(seconds)
            print(
                f"scout (Scalasca 2.6): {seconds:8.2f} s wall, peak RSS {rss:,.0f} MiB (all its processes)",
                flush=True,
            )
        if args.skip_commands:
            print("the commands        : not timed (--skip-commands)", flush=True)
            break
        two, one, first = commands_seconds(anchor, workdir / f"{label}-commands.cosydb")
        commands.append(two)
        one_command.append(one)
        first_load.append(first)
        against = seconds if scout_outcome == "ran" else None
        print(
            f"cosydb load + report: {two:8.2f} s wall (the commands){_versus(two, against)} (issue 42: <= 1.0)\n"
            f"cosydb load --report: {one:8.2f} s wall (one command){_versus(one, against)}\n"
            f"  as a first load   : {first:8.2f} s wall (no views file kept yet){_versus(first, against)}",
            flush=True,
        )
    return dict(
        trace=label,
        events=events,
        commands_s=commands,
        one_command_s=one_command,
        first_load_s=first_load,
        scout_s=scout,
        scout_outcome=scout_outcome,
        scout_rss_mib=scout_rss,
        load_s=load["seconds"],
        load_rate=rate,
        report_s=result["seconds"],
        again_s=again,
        otf2_print_s=yardstick,
        ratio=None if yardstick is None else total / yardstick,
        load_rss_mib=load["tree_rss_mib"],
        report_rss_mib=result["tree_rss_mib"],
    )


def _versus(seconds: float, scout: float | None) -> str:
    """`` = R x scout`` (nothing where scout was not measured)."""
    return "" if scout is None else f" = {seconds / scout:.2f} x scout"


def summary(rows: list[dict]) -> None:
    """One line per trace, then the limits: peak RSS <= 2 GiB (issue 42), events/s not falling with size."""
    print(
        f"\n{'trace':30} {'events':>11} {'load s':>8} {'events/s':>10} {'report s':>9} {'again s':>8} "
        f"{'otf2-print s':>12} {'ratio':>6} {'commands s':>11} {'one s':>11} {'first s':>11} {'scout s':>11} "
        f"{'/ scout':>19} {'load RSS':>9} {'report RSS':>10} {'scout RSS':>10}"
    )
    for r in rows:
        yardstick = "-" if r["otf2_print_s"] is None else f"{r['otf2_print_s']:.2f}"
        ratio = "-" if r["ratio"] is None else f"{r['ratio']:.2f}"
        if r["scout_s"] or r["scout_outcome"].startswith("not"):
            scout = _span(r["scout_s"])
        else:
            scout = r["scout_outcome"].split()[0]  # failed, stopped
        pairs = list(zip(r["commands_s"], r["one_command_s"], r["scout_s"]))
        versus = f"{_span([c / s for c, _, s in pairs])}/{_span([o / s for _, o, s in pairs])}" if pairs else "-"
        print(
            f"{r['trace']:30} {r['events']:11,} {r['load_s']:8.2f} {r['load_rate']:10,.0f} {r['report_s']:9.2f} "
            f"{r['again_s']:8.2f} {yardstick:>12} {ratio:>6} {_span(r['commands_s']):>11} "
            f"{_span(r['one_command_s']):>11} {_span(r['first_load_s']):>11} {scout:>11} "
            f"{versus:>19} {r['load_rss_mib']:7.0f} M {r['report_rss_mib']:8.0f} M {r['scout_rss_mib']:8.0f} M"
        )
    for r in rows:
        if r["scout_outcome"] != "ran":
            print(f"scout on {r['trace']}: {r['scout_outcome']}")
    peak = max(max(r["load_rss_mib"], r["report_rss_mib"]) for r in rows)
    print(f"peak RSS of every step: {peak:.0f} MiB ({'within' if peak <= 2048 else 'OVER'} issue 42's 2 GiB)")

    def ranks(row: dict) -> str:
        return row["trace"].split("-")[-1]  # synthetic-EVENTS-Rranks

    synthetic_rows = sorted(
        (r for r in rows if r["trace"].startswith("synthetic-")), key=lambda r: (ranks(r), r["events"])
    )
    for smaller, larger in zip(synthetic_rows, synthetic_rows[1:]):
        if ranks(smaller) != ranks(larger):
            continue
        kept = larger["load_rate"] >= smaller["load_rate"]
        print(
            f"load events/s at {larger['events']:,} / at {smaller['events']:,}: "
            f"{larger['load_rate'] / smaller['load_rate']:.2f} ({'not falling' if kept else 'FALLING'}); "
            f"load + report: {_rate(larger) / _rate(smaller):.2f} (issue 42: >= 0.9 from 10M to 100M)"
        )


def _span(values: list[float]) -> str:
    """``values`` as their range, ``low-high`` (one value alone; "-" for none)."""
    if not values:
        return "-"
    low, high = min(values), max(values)
    return f"{low:.2f}" if len(values) == 1 else f"{low:.2f}-{high:.2f}"


def _rate(row: dict) -> float:
    """Events per second of a row's load and report together."""
    return row["events"] / (row["load_s"] + row["report_s"])


def _size(text: str) -> tuple[int, int | None]:
    """``EVENTS`` or ``EVENTS:RANKS`` of ``--events`` (no ranks: ``--ranks``)."""
    events, _, ranks = text.partition(":")
    return int(events), int(ranks) if ranks else None


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument(
        "--events",
        type=_size,
        nargs="*",
        help="synthetic trace sizes, EVENTS or EVENTS:RANKS (default 1M, 10M and 30M events; none when "
        "--real is given)",
    )
    parser.add_argument("--ranks", type=int, default=16, help="ranks of the synthetic traces (default 16)")
    parser.add_argument(
        "--repeat", type=int, default=1, help="runs of scout and the commands side by side, interleaved (default 1)"
    )
    parser.add_argument(
        "--real",
        type=Path,
        nargs="*",
        default=[],
        help="real traces: an OTF2 anchor/directory or a .tar.xz holding one",
    )
    parser.add_argument("--workdir", type=Path, default=Path("/tmp/cosydb-bench"))
    parser.add_argument("--skip-bare", action="store_true", help="do not time the bare otf2 iteration")
    parser.add_argument("--skip-views", action="store_true", help="do not time each enhancement view alone")
    parser.add_argument(
        "--skip-entries", action="store_true", help="do not evaluate the catalog once more for each entry's seconds"
    )
    parser.add_argument(
        "--skip-commands",
        action="store_true",
        help="do not time the commands side by side with scout (load + report, one command, first load)",
    )
    parser.add_argument(
        "--scout-timeout", type=float, default=1800, help="seconds after which scout is stopped (default 1800)"
    )
    parser.add_argument(
        "--scout-max-rss",
        type=float,
        default=20480,
        help="MiB of resident memory (all scout's processes) above which scout is stopped (default 20480)",
    )
    args = parser.parse_args()
    print(host_capacity.line(), flush=True)  # before and after: a shared host changes
    args.workdir.mkdir(parents=True, exist_ok=True)
    if args.events is None:
        args.events = [] if args.real else [(1_000_000, None), (10_000_000, None), (30_000_000, None)]
    rows = []
    for events, ranks in args.events:
        rows.append(bench_trace(synthetic(args.workdir, events, ranks or args.ranks), args.workdir, args))
    for path in args.real:
        anchor = unpacked(args.workdir, path) if path.name.endswith((".tar.xz", ".tar.gz", ".tgz")) else path
        if anchor.is_dir():
            anchor = anchor / "traces.otf2"
        rows.append(bench_trace(anchor, args.workdir, args))
    if rows:
        summary(rows)
    print(host_capacity.line())


if __name__ == "__main__":
    if len(sys.argv) > 1 and sys.argv[1] == "--child":
        step = {
            "bare": child_bare,
            "load": child_load,
            "view": child_view,
            "report": child_report,
            "entries": child_entries,
        }[sys.argv[2]]
        print(json.dumps(step(*sys.argv[3:])))
    else:
        main()
