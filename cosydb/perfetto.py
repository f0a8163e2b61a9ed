"""Export a trace experiment as Chrome trace-event JSON, which the Perfetto UI and
chrome://tracing open (https://docs.google.com/document/d/1CvAClvFfyA5R-PhYUmn5OOQtYMH4h6I0nSsKchNAySU,
"Trace Event Format"): one track per location (process = rank, thread = thread), every
region instance a complete ("X") slice, every message a flow from the send event to the
receive event ("s" / "f" bound to the enclosing slices), and every wait-state instance of the
catalog's wait-state patterns a slice of its own on the waiting location, named after its
property, from the waiting call's Enter for its idle time (Late Sender: the receive waits
from its Enter, min(E(S), L(R)) - E(R); barrier: from the Enter to the last Enter; ...).
Times are microseconds (the format's unit) since the experiment's global offset."""

from __future__ import annotations

import json
import os
from pathlib import Path

from . import catalog as catalog_mod
from . import database, engine, names, outputs, resources
from .errors import CosyError
from .report import choose_experiment

#: Each wait-state pattern exported, over its rows ``w``: the columns of its instances
#: (name: the property, location_id, start_s: when the wait began, idle_s, callpath_id) and
#: what they join.
_CALL = "JOIN region_instances i ON i.experiment_id = $eid AND (i.location_id, i.enter_seq) = (w.location_id, {})"
_CLOCK = "JOIN experiments x ON x.experiment_id = $eid"
WAIT_STATES = {
    # a receive waits from its Enter
    "mpi_latesender_matches": (
        "'mpi_latesender', w.location_id, i.enter_s, w.idle_s, w.callpath_id",
        _CALL.format("w.recv_call_enter_seq"),
    ),
    # a send waits from the Enter of the call that completes it
    "mpi_latereceiver_matches": (
        "'mpi_latereceiver', w.location_id, i.enter_s, w.idle_s, w.callpath_id",
        _CALL.format("w.send_complete_call_enter_seq"),
    ),
    # a collective (and MPI_Init / MPI_Finalize) waits from the Enter of its call; its
    # completion time (mpi_*_completion) is the end of the call
    "mpi_collective_wait_matches": (
        "w.metric, w.location_id, "
        "CASE WHEN w.metric LIKE '%\\_completion' ESCAPE '\\' THEN i.leave_s - w.idle_s ELSE i.enter_s END, "
        "w.idle_s, w.callpath_id",
        "JOIN collective_instances ci ON ci.experiment_id = $eid "
        "AND (ci.comm_id, ci.instance_index, ci.location_id) = (w.comm_id, w.instance_index, w.location_id) "
        + _CALL.format("ci.call_enter_seq"),
    ),
    # an OpenMP barrier waits from its Enter for the team's last thread
    "omp_barrier_waits": (
        "'omp_' || w.omp_class || '_wait', w.location_id, "
        "ticks_to_s(w.enter_time, x.global_offset, x.timer_resolution), w.wait_s, w.callpath_id",
        _CLOCK,
    ),
    # a lock (critical section, lock API) is waited for until it is acquired
    "omp_lock_waits": (
        "CASE w.omp_class WHEN 'critical' THEN 'omp_lock_contention_critical' ELSE 'omp_lock_contention_api' END, "
        "w.location_id, ticks_to_s(w.time, x.global_offset, x.timer_resolution) - w.wait_s, w.wait_s, w.callpath_id",
        _CLOCK,
    ),
}


def write_trace(
    db: str | os.PathLike,
    output: str | os.PathLike,
    experiment: str | None = None,
    start_s: float | None = None,
    end_s: float | None = None,
    locations: list[str] | None = None,
) -> dict:
    """Write the experiment's timeline to ``output`` (atomically) and return the counts of
    slices, flows and wait states written. ``start_s`` / ``end_s``: keep what overlaps that
    window (seconds); ``locations``: keep these ranks (``3``) or threads (``3:1``)."""
    root, output = Path(db), outputs.checked(output, "run.json")
    con = database.connect(root)
    try:
        resources.apply(con, default_memory=resources.REPORT_MEMORY_LIMIT)
        exp = choose_experiment(con, root, experiment)
        if exp["is_profile"]:
            raise CosyError(root, f"experiment '{exp['name']}' is a profile: it has no timeline to export")
        eid = exp["experiment_id"]
        kept = _locations(con, eid, locations, root)
        bound = {"eid": eid, "start": start_s, "end": end_s, "locations": list(kept)}
        metadata = list(_metadata(con, eid, kept))
        slices = con.execute(
            f"""SELECT i.location_id, i.enter_s, i.leave_s, r.name, c.path
            FROM region_instances i JOIN regions r USING (experiment_id, region_id)
            JOIN callpaths c USING (experiment_id, callpath_id)
            WHERE experiment_id = $eid AND i.leave_s IS NOT NULL AND {_window("i")}""",
            bound,
        ).fetchall()
        region_slices = [
            _slice(names.short(name), location, kept, start, end, cat="region", args=_named(path, name))
            for location, start, end, name, path in slices
        ]
        messages = con.execute(
            """SELECT send_location_id, send_s, recv_location_id, recv_s, tag, send_bytes FROM messages
            WHERE experiment_id = $eid AND send_location_id IN (SELECT unnest($locations))
            AND recv_location_id IN (SELECT unnest($locations))
            AND recv_s >= coalesce($start, -1e300) AND send_s <= coalesce($end, 1e300)
            ORDER BY send_s, send_location_id""",
            bound,
        ).fetchall()
        flows = []
        for k, (sender, send_s, receiver, recv_s, tag, nbytes) in enumerate(messages):
            args = {"tag": tag, "bytes": nbytes}
            flows.append(_event("s", "message", sender, kept, send_s, cat="message", id=k, args=args))
            flows.append(_event("f", "message", receiver, kept, recv_s, cat="message", id=k, bp="e", args=args))
        waits = _wait_states(con, eid, bound)
        wait_slices = [
            _slice(name, location, kept, start, start + idle, cat="wait_state", args={"idle_s": idle, **_named(path)})
            for name, location, start, idle, path in waits
        ]
    finally:
        con.close()
    # per track by start, the longer of two slices starting together first (a call before the
    # wait inside it): the order in which they nest
    ordered = sorted(region_slices + wait_slices, key=lambda e: (e["pid"], e["tid"], e["ts"], -e["dur"]))
    events = metadata + ordered + flows
    with outputs.replaced(output) as tmp, open(tmp, "w") as file:
        file.write('{"displayTimeUnit": "ns", "traceEvents": [\n')
        file.write(",\n".join(json.dumps(e, separators=(",", ":")) for e in events))
        file.write("\n]}\n")
    return dict(slices=len(slices), flows=len(messages), wait_states=len(waits), locations=len(kept))


def _ns(seconds: float) -> int:
    return round(seconds * 1e9)


def _named(callpath: str, region: str | None = None) -> dict:
    """A slice's names for a reader: the call path demangled as the report shows it, the
    region's full signature, and the names as recorded where they differ (mangled C++)."""
    args = {"callpath": names.path(callpath)}
    if region is not None and names.demangle(region) != region:
        args |= {"region": names.demangle(region), "mangled": region}
    if args["callpath"] != callpath:
        args["mangled_callpath"] = callpath
    return args


def _event(ph: str, name: str, location: int, kept: dict, seconds: float, **fields) -> dict:
    """An event at ``seconds``, in the format's microseconds to the nanosecond."""
    pid, tid = kept[location]
    return {"ph": ph, "name": name, "pid": pid, "tid": tid, "ts": _ns(seconds) / 1000, **fields}


def _slice(name: str, location: int, kept: dict, start: float, end: float, **fields) -> dict:
    """A complete event from ``start`` to ``end`` (seconds), both rounded to the nanosecond
    first, so that a slice ending with another (a completion time and its call) nests in it."""
    return _event("X", name, location, kept, start, dur=(_ns(end) - _ns(start)) / 1000, **fields)


def _locations(con, eid: int, wanted: list[str] | None, root: Path) -> dict[int, tuple[int, int]]:
    """location_id -> (pid, tid) = (rank, thread) of the CPU threads kept."""
    rows = con.execute(
        "SELECT location_id, rank, thread FROM locations WHERE experiment_id = ? AND location_type = 'CPU_THREAD'",
        [eid],
    ).fetchall()
    every = {loc: (rank if rank is not None else loc, thread or 0) for loc, rank, thread in rows}
    if not wanted:
        return every
    kept = {}
    for item in wanted:
        try:
            rank, _, thread = item.partition(":")
            match = {loc: place for loc, place in every.items() if place[0] == int(rank)}
            if thread:
                match = {loc: place for loc, place in match.items() if place[1] == int(thread)}
        except ValueError:
            raise CosyError(root, f"--locations: '{item}' is not a rank (3) or rank:thread (3:1)") from None
        if not match:
            raise CosyError(root, f"--locations: no location {item} in this experiment")
        kept |= match
    return kept


def _metadata(con, eid: int, kept: dict):
    """Names of the tracks: a process per rank, a thread per location."""
    labels = dict(con.execute("SELECT location_id, name FROM locations WHERE experiment_id = ?", [eid]).fetchall())
    for pid in sorted({pid for pid, _ in kept.values()}):
        yield {"ph": "M", "name": "process_name", "pid": pid, "args": {"name": f"rank {pid}"}}
        yield {"ph": "M", "name": "process_sort_index", "pid": pid, "args": {"sort_index": pid}}
    for location, (pid, tid) in sorted(kept.items(), key=lambda kv: kv[1]):
        yield {"ph": "M", "name": "thread_name", "pid": pid, "tid": tid, "args": {"name": labels.get(location) or ""}}


def _window(instances: str) -> str:
    """The condition that keeps the region instances (alias ``instances``) in the window."""
    return (
        f"coalesce({instances}.leave_s, {instances}.enter_s) >= coalesce($start, -1e300)"
        f" AND {instances}.enter_s <= coalesce($end, 1e300)"
        f" AND {instances}.location_id IN (SELECT unnest($locations))"
    )


def _wait_states(con, eid: int, bound: dict) -> list[tuple]:
    """(property, location, start_s, idle_s, call path) of every wait-state instance of the
    WAIT_STATES patterns evaluable on this experiment, in the window."""
    evaluation = engine.evaluate(con, catalog_mod.load(), eid, {}, list(WAIT_STATES))
    parts = [
        f"SELECT {columns} FROM {{{{ ref('{pattern}') }}}} AS w {joins}"
        for pattern, (columns, joins) in WAIT_STATES.items()
        if evaluation.evaluated(pattern)
    ]
    if not parts:
        return []
    sql = f"""SELECT w.name, w.location_id, w.start_s, w.idle_s, c.path
        FROM ({" UNION ALL ".join(parts)}) AS w (name, location_id, start_s, idle_s, callpath_id)
        JOIN callpaths c ON c.experiment_id = $eid AND c.callpath_id = w.callpath_id
        WHERE w.idle_s > 0 AND w.start_s + w.idle_s >= coalesce($start, -1e300) AND w.start_s <= coalesce($end, 1e300)
        AND w.location_id IN (SELECT unnest($locations))
        ORDER BY w.location_id, w.start_s"""
    return evaluation.query(sql, bound).fetchall()
