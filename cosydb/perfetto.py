"""Export a trace experiment as Chrome trace-event JSON, which the Perfetto UI and
chrome://tracing open (https://docs.google.com/document/d/1CvAClvFfyA5R-PhYUmn5OOQtYMH4h6I0nSsKchNAySU,
"Trace Event Format"): one track per location (process = rank, thread = thread), every
region instance a complete ("X") slice, every message a flow from the send event to the
receive event ("s" / "f" bound to the enclosing slices), and every instance of each property
that declares a timeline (``timeline: <pattern>`` in its header; the pattern's rows are its
instances as intervals, catalog.TIMELINE_COLUMNS) a slice of its own on the waiting location,
named after the property: Late Sender from the receive's Enter for its idle time,
min(E(S), L(R)) - E(R); a barrier from the Enter to the last Enter; OpenMP's fork and join,
idle threads, ... (properties/*/*_timeline.sql). Per property and location the slices add up
to the property's value there. A message received before it was sent (the ranks' clocks
disagree: a clock-condition violation) is named so on its arrow and marked by an instant
event ("i") at the receive.
Times are microseconds (the format's unit) since the experiment's global offset."""

from __future__ import annotations

import json
import os
from pathlib import Path

from . import catalog as catalog_mod
from . import database, evaluator, names, outputs, resources
from .errors import CosyError
from .report import choose_experiment


def export(db, output, experiment=None, start=None, end=None, locations=None, properties_dirs=()) -> dict:
    """``cosydb export --format perfetto`` (``cosydb.formats``): ``write_trace``."""
    wanted = None if locations is None else [str(x) for x in locations]
    return write_trace(db, output, experiment, start, end, wanted, properties_dirs)


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
    properties_dirs: list[Path] | tuple = (),
) -> dict:
    """Write the experiment's timeline to ``output`` (atomically) and return the counts of
    slices, flows, wait states and clock violations written. ``start_s`` / ``end_s``: keep what overlaps that
    window (seconds); ``locations``: keep these ranks (``3``) or threads (``3:1``); the wait
    states drawn: those of the catalog with the plug-ins of ``properties_dirs`` that declare a timeline."""
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
        catalog = catalog_mod.load(properties_dirs)
        waits = _wait_states(con, eid, bound, catalog)
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
    # wait inside it), of two with the same interval the enclosing property first (a part is
    # drawn inside its parent, omp_fork in omp_management): the order in which they nest
    enclosed = {n for n, p in catalog.items() if p.timeline and p.parent and catalog[p.parent].timeline}
    ordered = sorted(
        region_slices + wait_slices,
        key=lambda e: (e["pid"], e["tid"], e["ts"], -e["dur"], e["cat"] == "wait_state", e["name"] in enclosed),
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


def _wait_states(con, eid: int, bound: dict, catalog: dict) -> list[tuple]:
    """(property, location, start_s, idle_s, call path, note) of every instance of the
    properties that declare a timeline (``timeline: <pattern>``, catalog.TIMELINE_COLUMNS),
    of the patterns evaluable on this experiment, in the window."""
    drawn: dict[str, list[str]] = {}  # timeline pattern -> the properties it draws
    for name, prop in catalog.items():
        if prop.timeline is not None:
            drawn.setdefault(prop.timeline, []).append(name)
    evaluation = evaluator.evaluate(con, catalog, eid, {}, sorted(drawn))
    shown = [pattern for pattern in sorted(drawn) if evaluation.evaluated(pattern)]
    if not shown:
        return []
    parts = [
        f"SELECT * FROM {{{{ ref('{pattern}') }}}} WHERE list_contains($drawn_{k}, property)"
        for k, pattern in enumerate(shown)
    ]
    bound = bound | {f"drawn_{k}": drawn[pattern] for k, pattern in enumerate(shown)}
    sql = f"""SELECT w.property, w.location_id, w.start_s, w.idle_s, c.path, w.note
        FROM ({" UNION ALL ".join(f"({part})" for part in parts)}) AS w
        JOIN callpaths c ON c.experiment_id = $eid AND c.callpath_id = w.callpath_id
        WHERE w.idle_s > 0 AND w.start_s + w.idle_s >= coalesce($start, -1e300) AND w.start_s <= coalesce($end, 1e300)
        AND w.location_id IN (SELECT unnest($locations))
        ORDER BY w.location_id, w.start_s"""
    return evaluation.query(sql, bound).fetchall()
