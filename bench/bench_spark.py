"""Benchmark cosydb on Apache Spark (issue 19) against the local DuckDB engine.

    python bench/bench_spark.py                                  # 30M synthetic events, local[2]
    python bench/bench_spark.py --events 1000000 --real ../shared/traces/minife-8-small
    python bench/bench_spark.py --master spark://head:7077 --workdir /shared/fs/bench

For every trace it runs, each step in a fresh process: a DuckDB load and report, then a
Spark load and report on ``--master`` with Spark's event log on, and prints the seconds,
events/s and peak RSS of each, the ratio Spark / DuckDB, and from the event log (the
executors' own task metrics, per cosydb job: ``cosydb decode``, ``cosydb derive <table>``,
``cosydb report <entry>``): the decode tasks' seconds (one task per location partition),
each model's wall seconds and task seconds, and the bytes every model shuffled (in all
and per event: the per-location models re-partition the events by location, the
cross-location ones, messages and collective instances, join across locations), and a
cluster estimate from these numbers (docs/scale-out.md).
"""

from __future__ import annotations

import argparse
import json
import shutil
import sys
import tempfile
import time
from collections import defaultdict
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

import host_capacity  # noqa: E402
from bench_load import _child, _peak_rss_mib, synthetic, unpacked  # noqa: E402


# -- child steps (each runs in its own process) ---------------------------------
def _session(master: str, event_log: str):
    """The Spark session the load or report then reuses (``getOrCreate``), writing its event log."""
    from cosydb import spark

    Path(event_log).mkdir(parents=True, exist_ok=True)
    return spark.session(
        master,
        {
            "spark.eventLog.enabled": "true",
            "spark.eventLog.dir": Path(event_log).resolve().as_uri(),
            "spark.eventLog.compress": "false",
            "spark.eventLog.rolling.enabled": "false",
        },
    )


def child_load(anchor: str, db: str, engine: str, master: str, event_log: str) -> dict:
    from cosydb.loading import load

    if engine == "spark":
        _session(master, event_log)
    started = time.perf_counter()
    meta = load(anchor, db, engine=engine, spark_master=master)
    return dict(events=meta["number_of_events"], seconds=time.perf_counter() - started, **_peak_rss_mib())


def child_report(db: str, engine: str, master: str, event_log: str) -> dict:
    from cosydb.report import run

    if engine == "spark":
        _session(master, event_log)
    started = time.perf_counter()
    result = run(db, threshold=0, engine_name=engine, spark_master=master)
    return dict(rows=len(result["results"]), seconds=time.perf_counter() - started, **_peak_rss_mib())


# -- the event log --------------------------------------------------------------
def job_metrics(event_log: Path) -> dict[str, dict]:
    """Per cosydb job description (Spark jobs of one model or entry summed): wall seconds
    (first submission to last completion), task seconds, tasks, shuffle bytes written, and
    each task's seconds (the decode tasks' spread)."""
    description, stage_job, jobs = {}, {}, defaultdict(lambda: defaultdict(float))
    started, tasks = {}, defaultdict(list)
    for path in sorted(event_log.iterdir()):
        for line in path.read_text().splitlines():
            event = json.loads(line)
            kind = event["Event"]
            if kind == "SparkListenerJobStart":
                name = (event.get("Properties") or {}).get("spark.job.description") or "(other)"
                description[event["Job ID"]] = name
                started[event["Job ID"]] = event["Submission Time"]
                for stage in event["Stage IDs"]:
                    stage_job[stage] = event["Job ID"]
            elif kind == "SparkListenerJobEnd":
                job = jobs[description[event["Job ID"]]]
                job["first_ms"] = min(job.get("first_ms", float("inf")), started[event["Job ID"]])
                job["last_ms"] = max(job.get("last_ms", 0), event["Completion Time"])
            elif kind == "SparkListenerTaskEnd" and event["Stage ID"] in stage_job:
                name = description[stage_job[event["Stage ID"]]]
                info, metrics = event["Task Info"], event.get("Task Metrics") or {}
                seconds = (info["Finish Time"] - info["Launch Time"]) / 1000
                jobs[name]["task_s"] += seconds
                jobs[name]["tasks"] += 1
                jobs[name]["shuffle_bytes"] += (metrics.get("Shuffle Write Metrics") or {}).get(
                    "Shuffle Bytes Written", 0
                )
                tasks[name].append(seconds)
    return {
        name: dict(
            wall_s=(job["last_ms"] - job["first_ms"]) / 1000 if "last_ms" in job else 0.0,
            task_s=job["task_s"],
            tasks=int(job["tasks"]),
            shuffle_bytes=job["shuffle_bytes"],
            task_seconds=tasks[name],
        )
        for name, job in jobs.items()
    }


# -- report -------------------------------------------------------------------
def bench_trace(anchor: Path, workdir: Path, master: str) -> dict:
    label = anchor.parent.name
    print(f"\n== {label} ({anchor}), Spark on {master}", flush=True)
    steps = {}
    for engine in ("duckdb", "spark"):
        db = workdir / f"{label}.{engine}.cosydb"
        shutil.rmtree(db, ignore_errors=True)
        event_log = Path(tempfile.mkdtemp(prefix="cosydb-eventlog-", dir=workdir)) if engine == "spark" else Path()
        load = _child_step("load", str(anchor), str(db), engine, master, str(event_log / "load"))
        report = _child_step("report", str(db), engine, master, str(event_log / "report"))
        steps[engine] = dict(load=load, report=report, event_log=event_log)
        events = load["events"]
        print(
            f"{engine:6} load   : {load['seconds']:9.2f} s  {events / load['seconds']:10,.0f} events/s  "
            f"peak RSS {load['tree_rss_mib']:6.0f} MiB (all processes, the JVM's too)\n"
            f"{engine:6} report : {report['seconds']:9.2f} s  {report['rows']:10,} rows listed  "
            f"peak RSS {report['tree_rss_mib']:6.0f} MiB",
            flush=True,
        )
    duck, spark = steps["duckdb"], steps["spark"]
    events = spark["load"]["events"]
    assert events == duck["load"]["events"], (events, duck["load"]["events"])
    if spark["report"]["rows"] != duck["report"]["rows"]:  # tests/test_dialects.py compares the rows themselves
        print(f"NOTE: Spark's report lists {spark['report']['rows']} rows, DuckDB's {duck['report']['rows']}")
    spark_total = spark["load"]["seconds"] + spark["report"]["seconds"]
    duck_total = duck["load"]["seconds"] + duck["report"]["seconds"]
    print(
        f"Spark / DuckDB : load {spark['load']['seconds'] / duck['load']['seconds']:.1f} x, "
        f"load + report {spark_total / duck_total:.1f} x"
    )

    load_jobs = job_metrics(spark["event_log"] / "load")
    report_jobs = job_metrics(spark["event_log"] / "report")
    in_jobs = sum(v["wall_s"] for v in [*load_jobs.values(), *report_jobs.values()])
    print(f"driver         : {spark_total - in_jobs:.2f} s of the load and report outside Spark's jobs")
    decode = load_jobs.get("cosydb decode")
    if decode:
        spread = sorted(decode["task_seconds"])
        print(
            f"decode tasks   : {decode['tasks']} (one per location partition), "
            f"{decode['wall_s']:.2f} s wall, task seconds min {spread[0]:.2f} / median "
            f"{spread[len(spread) // 2]:.2f} / max {spread[-1]:.2f}, "
            f"{events / decode['task_s']:,.0f} events per task second"
        )
    derive = {k[len("cosydb derive ") :]: v for k, v in load_jobs.items() if k.startswith("cosydb derive ")}
    shuffled = sum(v["shuffle_bytes"] for v in derive.values())
    print(
        f"derive         : {sum(v['wall_s'] for v in derive.values()):.2f} s wall over {len(derive)} models, "
        f"{sum(v['task_s'] for v in derive.values()):.2f} task s, shuffle {shuffled / 2**20:,.1f} MiB "
        f"({shuffled / events:.1f} bytes/event)"
    )
    print(f"{'model':28} {'wall s':>8} {'task s':>8} {'tasks':>6} {'shuffle MiB':>12} {'bytes/event':>12}")
    for name, v in sorted(derive.items(), key=lambda kv: -kv[1]["wall_s"]):
        print(
            f"{name:28} {v['wall_s']:8.2f} {v['task_s']:8.2f} {v['tasks']:6} "
            f"{v['shuffle_bytes'] / 2**20:12.2f} {v['shuffle_bytes'] / events:12.2f}"
        )
    entries = {k[len("cosydb report ") :]: v for k, v in report_jobs.items() if k.startswith("cosydb report ")}
    top = sorted(entries.items(), key=lambda kv: -kv[1]["wall_s"])[:8]
    print(
        f"report         : {len(entries)} entries, {sum(v['wall_s'] for v in entries.values()):.2f} s in "
        f"their jobs; costliest: "
        + ", ".join(f"{n} {v['wall_s']:.2f} s" for n, v in top)
        + f"; the rows read back (cosydb query) {report_jobs.get('cosydb query', {}).get('wall_s', 0.0):.2f} s"
    )
    return dict(
        trace=label,
        events=events,
        duck_s=duck_total,
        spark_load_s=spark["load"]["seconds"],
        spark_report_s=spark["report"]["seconds"],
        spark_rate=events / spark["load"]["seconds"],
        shuffle_per_event=shuffled / events,
        decode_rate=events / decode["task_s"] if decode else None,
        task_s=sum(v["task_s"] for v in [*derive.values(), *entries.values()]),
        shuffled=shuffled + sum(v["shuffle_bytes"] for v in entries.values()),
        jobs=len(derive) + len(entries),
        job_wall_median=sorted(v["wall_s"] for v in entries.values())[len(entries) // 2] if entries else 0.0,
        driver_s=spark_total - in_jobs,
    )


def estimate(row: dict, events: float, nodes: int, cores_per_node: int, network_gb_s: float) -> None:
    """A cluster's time for ``events`` from ``row``'s measured costs: decode tasks at their
    measured events per task second, the derive's and report's task seconds per event
    spread over every core, their shuffled bytes per event over the nodes' network (an
    all-to-all exchange), and each model's and entry's job latency (the median entry's
    wall seconds, most entries reading small tables) once, and the driver's own seconds
    outside Spark's jobs (translating the SQL, binding its types in DuckDB, the JVM's
    start) as measured: they grow with the catalog, not with the trace."""
    cores = nodes * cores_per_node
    parts = {
        "decode": events / (row["decode_rate"] * cores) if row["decode_rate"] else 0.0,
        "derive + report tasks": events * row["task_s"] / row["events"] / cores,
        "shuffle": events * row["shuffled"] / row["events"] / (nodes * network_gb_s * 1e9),
        "job latency": row["jobs"] * row["job_wall_median"],
        "driver": row["driver_s"],
    }
    print(
        f"\nestimate from {row['trace']} for {events:.0e} events on {nodes} nodes x {cores_per_node} cores, "
        f"{network_gb_s} GB/s network per node: "
        + ", ".join(f"{k} {v:,.0f} s" for k, v in parts.items())
        + f"; in all {sum(parts.values()) / 60:,.1f} min"
    )


def _child_step(step: str, *args: str) -> dict:
    return _child(step, *args, script=__file__)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--events", type=int, nargs="*", default=[30_000_000])
    parser.add_argument("--ranks", type=int, default=16)
    parser.add_argument("--real", type=Path, nargs="*", default=[], help="real traces (as bench_load.py)")
    parser.add_argument("--master", default="local[2]", help="the Spark master (default local[2])")
    parser.add_argument("--workdir", type=Path, default=Path("/tmp/cosydb-bench"))
    parser.add_argument(
        "--estimate",
        nargs=4,
        type=float,
        default=[1e10, 100, 32, 1.25],
        metavar=("EVENTS", "NODES", "CORES_PER_NODE", "NETWORK_GB_S"),
        help="the cluster to estimate a load + report for (default 1e10 events, 100 nodes x 32 cores, 1.25 GB/s)",
    )
    args = parser.parse_args()
    print(host_capacity.line(), flush=True)  # before and after: a shared host changes
    args.workdir.mkdir(parents=True, exist_ok=True)
    anchors = [synthetic(args.workdir, events, args.ranks) for events in args.events]
    for path in args.real:
        anchor = unpacked(args.workdir, path) if path.name.endswith((".tar.xz", ".tar.gz", ".tgz")) else path
        anchors.append(anchor / "traces.otf2" if anchor.is_dir() else anchor)
    rows = [bench_trace(anchor, args.workdir, args.master) for anchor in anchors]
    print(
        f"\n{'trace':28} {'events':>11} {'DuckDB s':>9} {'Spark load s':>12} {'report s':>9} "
        f"{'Spark events/s':>14} {'Spark/DuckDB':>12} {'shuffle B/event':>15}"
    )
    for r in rows:
        print(
            f"{r['trace']:28} {r['events']:11,} {r['duck_s']:9.2f} {r['spark_load_s']:12.2f} "
            f"{r['spark_report_s']:9.2f} {r['spark_rate']:14,.0f} "
            f"{(r['spark_load_s'] + r['spark_report_s']) / r['duck_s']:12.1f} {r['shuffle_per_event']:15.1f}"
        )
    events, nodes, cores, network = args.estimate
    estimate(max(rows, key=lambda r: r["events"]), events, int(nodes), int(cores), network)
    print(host_capacity.line())


if __name__ == "__main__":
    if len(sys.argv) > 1 and sys.argv[1] == "--child":
        step = {"load": child_load, "report": child_report}[sys.argv[2]]
        print(json.dumps(step(*sys.argv[3:])))
    else:
        main()
