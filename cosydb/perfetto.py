"""Export a trace experiment as Chrome trace-event JSON, which the Perfetto UI and
chrome://tracing open (https://docs.google.com/document/d/1CvAClvFfyA5R-PhYUmn5OOQtYMH4h6I0nSsKchNAySU,
"Trace Event Format"): one track per location (process = rank, thread = thread), every
region instance a complete ("X") slice, every message a flow from the send event to the
receive event ("s" / "f" bound to the enclosing slices), and every wait-state instance of the
catalog's wait-state patterns a slice of its own on the waiting location, named after its
property, from the waiting call's Enter for its idle time (Late Sender: the receive waits
from its Enter, min(E(S), L(R)) - E(R); barrier: from the Enter to the last Enter; ...).
OpenMP thread management is drawn from the fork to each thread's Enter of the parallel
region and from its Leave to the join (omp_management, omp_fork), and idle threads while
thread 0 of their process runs serially (omp_idle_threads, omp_limited_parallelism): per
property and location the slices add up to the property's value there. A message received
before it was sent (the ranks' clocks disagree: a clock-condition violation) is named so on
its arrow and marked by an instant event ("i") at the receive.
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
#: (name: the property, location_id, start_s: when the wait began, idle_s, callpath_id, note:
#: what the interval is, or NULL) and what they join.
_CALL = "JOIN region_instances i ON i.experiment_id = $eid AND (i.location_id, i.enter_seq) = (w.location_id, {})"
_CLOCK = "JOIN experiments x ON x.experiment_id = $eid"
WAIT_STATES = {
    # a receive waits from its Enter
    "mpi_latesender_matches": (
        "'mpi_latesender', w.location_id, i.enter_s, w.idle_s, w.callpath_id, NULL",
        _CALL.format("w.recv_call_enter_seq"),
    ),
    # a send waits from the Enter of the call that completes it
    "mpi_latereceiver_matches": (
        "'mpi_latereceiver', w.location_id, i.enter_s, w.idle_s, w.callpath_id, NULL",
        _CALL.format("w.send_complete_call_enter_seq"),
    ),
    # a collective (and MPI_Init / MPI_Finalize) waits from the Enter of its call; its
    # completion time (mpi_*_completion) is the end of the call
    "mpi_collective_wait_matches": (
        "w.metric, w.location_id, "
        "CASE WHEN w.metric LIKE '%\\_completion' ESCAPE '\\' THEN i.leave_s - w.idle_s ELSE i.enter_s END, "
        "w.idle_s, w.callpath_id, NULL",
        "JOIN collective_instances ci ON ci.experiment_id = $eid "
        "AND (ci.comm_id, ci.instance_index, ci.location_id) = (w.comm_id, w.instance_index, w.location_id) "
        + _CALL.format("ci.call_enter_seq"),
    ),
    # an OpenMP barrier waits from its Enter for the team's last thread
    "omp_barrier_waits": (
        "'omp_' || w.omp_class || '_wait', w.location_id, "
        "ticks_to_s(w.enter_time, x.global_offset, x.timer_resolution), w.wait_s, w.callpath_id, NULL",
        _CLOCK,
    ),
    # a lock (critical section, lock API) is waited for until it is acquired
    "omp_lock_waits": (
        "CASE w.omp_class WHEN 'critical' THEN 'omp_lock_contention_critical' ELSE 'omp_lock_contention_api' END, "
        "w.location_id, ticks_to_s(w.time, x.global_offset, x.timer_resolution) - w.wait_s, w.wait_s, w.callpath_id, "
        "NULL",
        _CLOCK,
    ),
    # each thread of a team is forked from the fork to its Enter of the parallel region and
    # joined from its Leave to the join (omp_management; omp_fork the first part, drawn inside
    # the omp_management slice of the same interval), at the parallel region's call path
    "omp_fork_join": (
        "part.name, w.location_id, "
        "CASE WHEN part.is_fork THEN i.enter_s - w.fork_s ELSE i.leave_s END, "
        "CASE WHEN part.is_fork THEN w.fork_s ELSE w.join_s END, w.callpath_id, "
        "CASE WHEN part.is_fork THEN 'fork to Enter of the parallel region' "
        "ELSE 'Leave of the parallel region to join' END",
        "CROSS JOIN (VALUES ('omp_management', true), ('omp_fork', true), ('omp_management', false)) "
        "AS part (name, is_fork) " + _CALL.format("w.enter_seq"),
    ),
}

#: OpenMP idle threads (omp_idle_time: Time counts every thread of a process for the whole
#: run): while a process's thread 0 runs outside parallel regions, each of its other threads
#: is idle; a slice per interval of thread 0's own (exclusive) time at a call path outside
#: parallel regions, its fork and join intervals left out (they are omp_management's), at
#: that call path; and a thread left out of a smaller team idles from the fork to the join
#: (omp_limited_parallelism, drawn inside the omp_idle_threads slice of the same interval).
IDLE_THREADS = """
WITH threads AS (
    SELECT location_id, location_group_id, thread FROM {{ ref('locations') }} WHERE location_type = 'CPU_THREAD'
),
clock AS (SELECT global_offset, timer_resolution FROM {{ ref('experiments') }}),
-- thread 0's region events, each closing the interval since the one before it, which is
-- the own time of the call path active in it (an Enter: the caller's, a Leave: the callee's)
marks AS (
    SELECT i.location_id, i.enter_seq AS seq, i.enter_s AS time_s, c.parent_id AS callpath_id
    FROM {{ ref('region_instances') }} AS i JOIN {{ ref('callpaths') }} AS c USING (callpath_id)
    WHERE i.location_id IN (SELECT location_id FROM threads WHERE thread = 0)
    UNION ALL
    SELECT location_id, leave_seq, leave_s, callpath_id FROM {{ ref('region_instances') }}
    WHERE leave_seq IS NOT NULL AND location_id IN (SELECT location_id FROM threads WHERE thread = 0)
),
serial AS (
    SELECT location_id, lag(time_s) OVER (PARTITION BY location_id ORDER BY seq) AS from_s, time_s AS to_s,
        callpath_id
    FROM marks
    QUALIFY callpath_id IS NOT NULL AND callpath_id NOT IN (SELECT callpath_id FROM {{ ref('parallel_callpaths') }})
),
-- the teams thread 0 forks, from the fork to the join (or its Leave, if later)
teams AS (
    SELECT p.location_id, p.fork_location_id, p.fork_seq, p.team_size, p.process_threads, i.callpath_id,
        ticks_to_s(p.fork_time, clock.global_offset, clock.timer_resolution) AS from_s,
        ticks_to_s(p.join_time, clock.global_offset, clock.timer_resolution) AS join_s,
        greatest(i.leave_s, coalesce(join_s, i.leave_s)) AS to_s
    FROM {{ ref('parallel_instances') }} AS p
    JOIN {{ ref('region_instances') }} AS i USING (location_id, enter_seq)
    CROSS JOIN clock
    WHERE p.location_id = p.fork_location_id
),
-- an interval that begins inside a team's fork..join begins at its end; one that ends
-- inside it ends at its start
from_cut AS (
    SELECT s.location_id, s.callpath_id, s.to_s,
        CASE WHEN t.to_s > s.from_s THEN t.to_s ELSE s.from_s END AS from_s
    FROM serial AS s ASOF LEFT JOIN teams AS t ON s.location_id = t.location_id AND s.from_s >= t.from_s
),
cut AS (
    SELECT s.location_id, s.callpath_id, s.from_s,
        CASE WHEN t.to_s >= s.to_s THEN t.from_s ELSE s.to_s END AS to_s
    FROM from_cut AS s ASOF LEFT JOIN teams AS t ON s.location_id = t.location_id AND s.to_s > t.from_s
)
SELECT 'omp_idle_threads', w.location_id, s.from_s, s.to_s - s.from_s, s.callpath_id,
    'thread 0 runs serially'
FROM cut AS s
JOIN threads AS m USING (location_id)
JOIN threads AS w ON w.location_group_id = m.location_group_id AND w.thread > 0
UNION ALL
SELECT part.name, w.location_id, t.from_s, t.join_s - t.from_s, t.callpath_id,
    'not in the team (' || t.team_size || ' of ' || t.process_threads || ' threads)'
FROM teams AS t
JOIN threads AS m USING (location_id)
JOIN threads AS w ON w.location_group_id = m.location_group_id
CROSS JOIN (VALUES ('omp_idle_threads'), ('omp_limited_parallelism')) AS part (name)
WHERE t.team_size < t.process_threads AND NOT EXISTS (
    SELECT 1 FROM {{ ref('parallel_instances') }} AS q
    WHERE (q.fork_location_id, q.fork_seq, q.location_id) = (t.fork_location_id, t.fork_seq, w.location_id)
)
"""

#: per track, of two slices with the same interval, the enclosing one first
_ENCLOSED = {"omp_fork": 1, "omp_limited_parallelism": 1}


def export(db, output, experiment=None, start=None, end=None, locations=None) -> dict:
    """``cosydb export --format perfetto`` (``cosydb.formats``): ``write_trace``."""
    return write_trace(db, output, experiment, start, end, None if locations is None else [str(x) for x in locations])


def summary(written: dict) -> str:
    return (
        f"{written['slices']:,} region slices, {written['flows']:,} message flows and "
        f"{written['wait_states']:,} wait-state slices on {written['locations']} locations"
        + (f", {written['clock_violations']:,} clock violations marked" if written["clock_violations"] else "")
    )


def write_trace(
    db: str | os.PathLike,
    output: str | os.PathLike,
    experiment: str | None = None,
    start_s: float | None = None,
    end_s: float | None = None,
    locations: list[str] | None = None,
) -> dict:
    """Write the experiment's timeline to ``output`` (atomically) and return the counts of
    slices, flows, wait states and clock violations written. ``start_s`` / ``end_s``: keep what overlaps that
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
            """SELECT send_location_id, send_s, recv_location_id, recv_s, tag, send_bytes,
            CASE WHEN recv_s < send_s THEN send_s - recv_s END AS early_s FROM messages
            WHERE experiment_id = $eid AND send_location_id IN (SELECT unnest($locations))
            AND recv_location_id IN (SELECT unnest($locations))
            AND recv_s >= coalesce($start, -1e300) AND send_s <= coalesce($end, 1e300)
            ORDER BY send_s, send_location_id""",
            bound,
        ).fetchall()
        flows, violations = [], []
        for k, (sender, send_s, receiver, recv_s, tag, nbytes, early_s) in enumerate(messages):
            args, name = {"tag": tag, "bytes": nbytes}, "message"
            if early_s is not None:  # the receive before its send: the two ranks' clocks disagree
                violation = f"clock violation: receive {_us(early_s)} µs before its send"
                name = f"message, {violation}"
                args |= {"clock_violation": violation, "early_s": early_s}
                violations.append(
                    _event(
                        "i",
                        violation,
                        receiver,
                        kept,
                        recv_s,
                        cat="clock_violation",
                        s="t",
                        args={"sender": "{}:{}".format(*kept[sender]), "send_ts": _ns(send_s) / 1000, **args},
                    )
                )
            flows.append(_event("s", name, sender, kept, send_s, cat="message", id=k, args=args))
            flows.append(_event("f", name, receiver, kept, recv_s, cat="message", id=k, bp="e", args=args))
        waits = _wait_states(con, eid, bound)
        wait_slices = [
            _slice(
                name,
                location,
                kept,
                start,
                start + idle,
                cat="wait_state",
                args={"idle_s": idle, **_named(path), **({"interval": note} if note else {})},
            )
            for name, location, start, idle, path, note in waits
        ]
    finally:
        con.close()
    # per track by start, the longer of two slices starting together first (a call before the
    # wait inside it), of two with the same interval the enclosing property first: the order
    # in which they nest
    ordered = sorted(
        region_slices + wait_slices,
        key=lambda e: (e["pid"], e["tid"], e["ts"], -e["dur"], e["cat"] == "wait_state", _ENCLOSED.get(e["name"], 0)),
    )
    events = metadata + ordered + flows + violations
    # the JSON object form with its one required key. No "displayTimeUnit": the format's ts
    # and dur are microseconds whatever it says ("ms" or "ns" only choose how a viewer labels
    # times), and Perfetto versions before 2022 read ts as nanoseconds under "ns"
    with outputs.replaced(output) as tmp, open(tmp, "w") as file:
        file.write('{"traceEvents": [\n')
        file.write(",\n".join(json.dumps(e, separators=(",", ":")) for e in events))
        file.write("\n]}\n")
    return dict(
        slices=len(slices),
        flows=len(messages),
        wait_states=len(waits),
        locations=len(kept),
        clock_violations=len(violations),
    )


def _ns(seconds: float) -> int:
    return round(seconds * 1e9)


def _us(seconds: float) -> str:
    """A time in microseconds to the nanosecond, without trailing zeros (0.601, 12)."""
    return f"{seconds * 1e6:,.3f}".rstrip("0").rstrip(".")


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
    """(property, location, start_s, idle_s, call path, note) of every wait-state instance of
    the WAIT_STATES patterns evaluable on this experiment and of the idle threads
    (IDLE_THREADS, where omp_idle_time is), in the window."""
    evaluation = engine.evaluate(con, catalog_mod.load(), eid, {}, [*WAIT_STATES, "omp_idle_time"])
    parts = [
        f"SELECT {columns} FROM {{{{ ref('{pattern}') }}}} AS w {joins}"
        for pattern, (columns, joins) in WAIT_STATES.items()
        if evaluation.evaluated(pattern)
    ]
    if evaluation.evaluated("omp_idle_time"):
        parts.append(IDLE_THREADS)
    if not parts:
        return []
    sql = f"""SELECT w.name, w.location_id, w.start_s, w.idle_s, c.path, w.note
        FROM ({" UNION ALL ".join(f"({part})" for part in parts)})
            AS w (name, location_id, start_s, idle_s, callpath_id, note)
        JOIN callpaths c ON c.experiment_id = $eid AND c.callpath_id = w.callpath_id
        WHERE w.idle_s > 0 AND w.start_s + w.idle_s >= coalesce($start, -1e300) AND w.start_s <= coalesce($end, 1e300)
        AND w.location_id IN (SELECT unnest($locations))
        ORDER BY w.location_id, w.start_s"""
    return evaluation.query(sql, bound).fetchall()
