"""`cosydb export --format perfetto`: the timeline as Chrome trace-event JSON, read back here
by the format's own rules (Trace Event Format: complete events "X" with ts/dur in
microseconds, flow events "s"/"f" with an id, instant events "i" with a scope, metadata
"M"), never by cosydb's code."""

import json
from collections import Counter, defaultdict
from pathlib import Path

import pytest
from conftest import NS, TRACES, rows
from cosydb.fixtures.generator import TraceBuilder
from scalasca_reference import csv_cells
from test_openmp import PAR, smaller_team_run, two_thread_run
from test_otf_v1 import exchange

from cosydb import database
from cosydb.loading import load
from cosydb.perfetto import write_trace
from cosydb.report import run


def read_back(path) -> list[dict]:
    """The events of a trace-event file, checked against the format: known phases, the fields
    each phase needs, flows in pairs (a start and a finish bound to its enclosing slice; a
    finish may precede its start where the clocks of a real run disagree), and complete events
    on each thread that nest (a slice ends before the slice it starts in ends)."""
    document = json.loads(path.read_text())
    events = document["traceEvents"]
    assert isinstance(events, list)
    flows = defaultdict(list)
    tracks = defaultdict(list)
    for e in events:
        assert e["ph"] in ("M", "X", "s", "f", "i"), e
        assert isinstance(e["pid"], int) and isinstance(e["name"], str)
        if e["ph"] == "M":
            assert e["name"] in ("process_name", "process_sort_index", "thread_name") and "args" in e
            continue
        assert isinstance(e["tid"], int) and isinstance(e["ts"], int | float)
        if e["ph"] == "X":
            assert e["dur"] >= 0
            tracks[(e["pid"], e["tid"])].append((e["ts"], e["ts"] + e["dur"]))
        elif e["ph"] == "i":
            assert e["s"] in ("g", "p", "t")
        else:
            flows[e["id"]].append(e)
    for pair in flows.values():
        assert sorted(f["ph"] for f in pair) == ["f", "s"], pair
        assert next(f for f in pair if f["ph"] == "f")["bp"] == "e"
    for spans in tracks.values():  # times to the nanosecond, as the viewers read them
        open_ends = []
        for begin, end in sorted(((round(b * 1e3), round(e * 1e3)) for b, e in spans), key=lambda s: (s[0], -s[1])):
            while open_ends and open_ends[-1] <= begin:
                open_ends.pop()
            assert not open_ends or end <= open_ends[-1], (begin, end, open_ends[-1])
            open_ends.append(end)
    return events


def slices(events, cat):
    return [e for e in events if e["ph"] == "X" and e["cat"] == cat]


def durations(events) -> Counter:
    """Per (wait-state slice name, (pid, tid)): the sum of the slices' durations, seconds."""
    total = Counter()
    for e in slices(events, "wait_state"):
        total[(e["name"], (e["pid"], e["tid"]))] += e["dur"] * 1e-6
    return total


def values_per_location(db, properties) -> dict:
    """Per (property, (rank, thread)): the property's value on that location as the report
    stores it (property_results, summed over its call paths), after a report of ``properties``."""
    run(db, threshold=0, properties=sorted(properties))
    con = database.connect(db)
    try:
        return {
            (name, (rank, thread or 0)): value
            for name, rank, thread, value in con.execute(
                "SELECT p.property, l.rank, l.thread, sum(p.value) FROM property_results p "
                "JOIN locations l USING (experiment_id, location_id) "
                "WHERE p.property IN (SELECT unnest($p)) AND p.status = 'evaluated' GROUP BY ALL",
                {"p": sorted(properties)},
            ).fetchall()
            if value
        }
    finally:
        con.close()


#: wait states each real trace must show: MPI, and on the hybrid one OpenMP barriers, thread
#: management (fork, join) and threads idle while thread 0 runs serially too
EXPECTED_WAITS = {
    "hpccg-8-small": {"mpi_latesender", "mpi_latereceiver", "mpi_wait_nxn"},
    "lulesh_hyb-8x2-small": {
        "mpi_latesender",
        "mpi_latereceiver",
        "mpi_wait_nxn",
        "omp_ibarrier_wait",
        "omp_idle_threads",
        "omp_management",
        "omp_fork",
    },
}


# the hybrid trace's timeline is 148 MB of JSON to write and read back: in the slow tier (CI)
@pytest.fixture(
    scope="module",
    params=[pytest.param(t, marks=pytest.mark.slow) if "lulesh" in t else t for t in sorted(EXPECTED_WAITS)],
)
def exported(request, real_db, tmp_path_factory):
    db = real_db(request.param)
    path = tmp_path_factory.mktemp("perfetto") / "trace.json"
    written = write_trace(db, path)
    return db, read_back(path), written, EXPECTED_WAITS[request.param]


def test_one_slice_per_region_instance_and_one_flow_per_message(exported):
    db, events, written, _ = exported
    con = database.connect(db)
    (instances,) = con.execute("SELECT count(*) FROM region_instances WHERE leave_s IS NOT NULL").fetchone()
    (messages,) = con.execute("SELECT count(*) FROM messages").fetchone()
    con.close()
    assert len(slices(events, "region")) == instances == written["slices"]
    assert len([e for e in events if e["ph"] == "s"]) == messages == written["flows"]
    assert len({e["pid"] for e in events if e["ph"] == "X"}) == 8


def test_wait_state_slices_sum_to_the_reported_wait_states(exported):
    """Each wait-state instance is one slice named after its property: per property, their
    durations add up to the property's value in the report, over all locations."""
    db, events, _, expected = exported
    waits = slices(events, "wait_state")
    assert expected <= {e["name"] for e in waits}
    totals = Counter()
    for e in waits:
        totals[e["name"]] += e["args"]["idle_s"]
        assert e["args"]["idle_s"] == pytest.approx(e["dur"] * 1e-6, abs=1e-9)  # drawn to the nanosecond
    report = {
        r["property"]: r["value"]
        for r in run(db, threshold=0, properties=sorted(totals))["results"]
        if r["rank"] is None and r["callpath"] is not None and r["status"] == "evaluated"
    }
    con = database.connect(db)
    per_property = dict(
        con.execute(
            "SELECT property, sum(value) FROM property_results WHERE location_id IS NOT NULL AND property IN "
            "(SELECT unnest($p)) GROUP BY ALL",
            {"p": sorted(totals)},
        ).fetchall()
    )
    con.close()
    assert report
    for name, total in totals.items():
        assert total == pytest.approx(per_property[name], rel=1e-6), name


def test_wait_state_slices_sum_to_each_location_s_value(exported):
    """Per (property, location): the slices' durations (µs, to the nanosecond) add up to the
    property's value on that location within 1 µs, and every location with a value has them."""
    db, events, _, expected = exported
    drawn = durations(events)
    stored = values_per_location(db, {name for name, _ in drawn})
    assert expected <= {name for name, _ in stored}
    assert {key for key, value in stored.items() if value > 1e-6} <= set(drawn)
    for key, seconds in drawn.items():
        assert seconds == pytest.approx(stored.get(key, 0), abs=1e-6), key


def test_wait_state_slices_per_location_equal_scalasca_s(exported):
    """Per (metric, location): the slices add up to Scalasca's value of the metric there (its
    *.all.csv, six significant digits a cell, summed over the call paths), for every property
    drawn that is a Scalasca metric; on LULESH omp_idle_threads 7.43 s and omp_management
    1.31 s (Scalasca's totals) among them."""
    db, events, _, expected = exported
    cells = csv_cells(TRACES / Path(db).stem)
    drawn = durations(events)
    compared = {name for name, _ in drawn} & {metric for metric, _, _ in cells}
    assert expected <= compared
    scalasca = Counter()
    for (metric, _, location), value in cells.items():
        if metric in compared:
            scalasca[(metric, location)] += value
    assert {key for key, value in scalasca.items() if value} == {key for key in drawn if key[0] in compared}
    for key, value in scalasca.items():
        assert drawn.get(key, 0) == pytest.approx(value, rel=1e-5, abs=1e-6), key
    totals = Counter()
    for (name, _), seconds in drawn.items():
        totals[name] += seconds
    if "omp_idle_threads" in expected:
        assert totals["omp_idle_threads"] == pytest.approx(7.430002, abs=1e-5)
        assert totals["omp_management"] == pytest.approx(1.313021, abs=1e-5)


def test_a_constructed_late_sender_is_where_and_when_it_happened(tmp_path):
    """exchange(): rank 1 waits in MPI_Recv from 100 ns for 400 ns; the window 0.09..0.15 µs
    and rank 1 keep its Recv, main, prog and the wait, and nothing of ranks 0 and 2."""
    b = exchange()
    load(b.write(tmp_path / "run"), tmp_path / "run.cosydb")
    path = tmp_path / "cut.json"
    written = write_trace(tmp_path / "run.cosydb", path, start_s=90 * NS, end_s=150 * NS, locations=["1"])
    events = read_back(path)
    assert {e["pid"] for e in events} == {1}
    assert sorted(e["name"] for e in slices(events, "region")) == ["MPI_Recv", "main", "prog"]
    (wait,) = slices(events, "wait_state")
    assert (wait["name"], wait["ts"], wait["dur"]) == ("mpi_latesender", pytest.approx(0.1), pytest.approx(0.4))
    assert wait["args"]["callpath"] == "prog/main/MPI_Recv"
    assert written == dict(slices=3, flows=0, wait_states=1, locations=1, clock_violations=0)
    # the whole run: the two messages as flows from the send to the receive
    write_trace(tmp_path / "run.cosydb", tmp_path / "whole.json")
    whole = read_back(tmp_path / "whole.json")
    starts = sorted((e["pid"], e["ts"]) for e in whole if e["ph"] == "s")
    finishes = sorted((e["pid"], e["ts"]) for e in whole if e["ph"] == "f")
    assert starts == [(0, pytest.approx(0.5)), (2, pytest.approx(0.72))]
    assert finishes == [(0, pytest.approx(0.78)), (1, pytest.approx(0.6))]
    con = database.connect(tmp_path / "run.cosydb")
    assert len(slices(whole, "region")) == len(rows(con, "SELECT * FROM region_instances"))
    con.close()


#: A plug-in wait state, as a contributor adds one: the pattern of its instances as intervals
#: (catalog.TIMELINE_COLUMNS) and the property that sums them, whose header declares its delay
#: class, the report's name of it and its timeline. Here: every receive call waits from its
#: Enter to its Leave.
MY_WAIT_TIMELINE = """{#---
kind: pattern
parent: null
unit: s
on_demand: true
columns: {property: VARCHAR, location_id: BIGINT, start_s: DOUBLE, idle_s: DOUBLE, callpath_id: BIGINT, note: VARCHAR}
info: Each receive call as a wait.
description: Receive calls, Enter to Leave.
diagnosis: None.
---#}
select 'my_wait' as property, i.location_id, i.enter_s as start_s, i.incl_s as idle_s, i.callpath_id,
    'the whole call' as note
from {{ ref('region_instances') }} as i
join {{ ref('regions') }} as r using (region_id)
where r.name = 'MPI_Recv'
"""
MY_WAIT = """{#---
kind: property
parent: null
unit: s
wait_state: {class: latesender, label: Late Sender}
timeline: my_wait_timeline
info: Time in receive calls.
description: The receive calls' time.
diagnosis: None.
---#}
{% import 'templates/asl.sql' as asl with context %}
{{ asl.sum_matches(ref('my_wait_timeline'), 'idle_s') }}
"""


def test_a_wait_state_of_a_plug_in_is_drawn_where_its_timeline_says(tmp_path):
    """exchange(): rank 1's MPI_Recv runs 100..600 ns, rank 0's 750..780; the plug-in wait
    state my_wait draws each as a slice of its own on the timeline, beside mpi_latesender's."""
    b = exchange()
    load(b.write(tmp_path / "run"), tmp_path / "run.cosydb")
    plugins = tmp_path / "props" / "mine"
    plugins.mkdir(parents=True)
    (plugins / "my_wait_timeline.sql").write_text(MY_WAIT_TIMELINE)
    (plugins / "my_wait.sql").write_text(MY_WAIT)
    write_trace(tmp_path / "run.cosydb", tmp_path / "mine.json", properties_dirs=[plugins.parent])
    waits = slices(read_back(tmp_path / "mine.json"), "wait_state")
    mine = sorted((e["pid"], e["ts"], e["dur"], e["args"]["interval"]) for e in waits if e["name"] == "my_wait")
    assert mine == [
        (0, pytest.approx(0.75), pytest.approx(0.03), "the whole call"),
        (1, pytest.approx(0.1), pytest.approx(0.5), "the whole call"),
    ]
    assert "mpi_latesender" in {e["name"] for e in waits}
    write_trace(tmp_path / "run.cosydb", tmp_path / "builtin.json")  # the built-in catalog alone
    assert "my_wait" not in {e["name"] for e in slices(read_back(tmp_path / "builtin.json"), "wait_state")}


def test_an_output_that_cannot_be_written_fails_before_any_work(tmp_path):
    """A missing directory or a directory as the file: one line naming it, exit 2, nothing
    written (the HTML report says so before it evaluates the catalog: no results stored)."""
    from conftest import assert_clean_failure, cosydb

    load(exchange().write(tmp_path / "run"), tmp_path / "run.cosydb")
    missing = tmp_path / "nowhere" / "x.json"
    assert_clean_failure(
        cosydb("export", tmp_path / "run.cosydb", "--format", "perfetto", "-o", missing), "directory does not exist"
    )
    assert_clean_failure(
        cosydb("export", tmp_path / "run.cosydb", "--format", "perfetto", "-o", tmp_path), "is a directory"
    )
    assert_clean_failure(
        cosydb("report", tmp_path / "run.cosydb", "--format", "html", "-o", missing), "directory does not exist"
    )
    con = database.connect(tmp_path / "run.cosydb")
    assert con.execute("SELECT count(*) FROM property_results").fetchone() == (0,)
    con.close()
    assert not list(tmp_path.glob(".*.tmp"))


def omp_slices(events, name, tid):
    """(start, end) in ns of the wait-state slices ``name`` on rank 0's thread ``tid``, with
    their call paths."""
    return sorted(
        (round(e["ts"] * 1e3), round((e["ts"] + e["dur"]) * 1e3), e["args"]["callpath"])
        for e in slices(events, "wait_state")
        if e["name"] == name and (e["pid"], e["tid"]) == (0, tid)
    )


def test_openmp_wait_states_of_a_constructed_run_where_they_happened(tmp_path):
    """two_thread_run (test_openmp): thread 0 runs main 0..10000 with init 100..1000, forks at
    1000, its team enters the parallel region at 1200 (thread 0) and 1400 (thread 1), leaves
    it at 6000, joins at 6500, then finish 7000..9000. Thread 1 idles while thread 0 runs
    serially, outside the fork..join: main 0..100, init 100..1000, main 6500..7000, finish
    7000..9000, main 9000..10000 (4500 ns). Fork: 1000..1200 and 1000..1400; join 6000..6500
    on both; thread 1 waits at the implicit barrier 3000..5000."""
    load(two_thread_run().write(tmp_path / "run"), tmp_path / "run.cosydb")
    path = tmp_path / "trace.json"
    write_trace(tmp_path / "run.cosydb", path)
    events = read_back(path)
    par = f"prog/main/{PAR}"
    assert omp_slices(events, "omp_idle_threads", 1) == [
        (0, 100, "prog/main"),
        (100, 1000, "prog/main/init"),
        (6500, 7000, "prog/main"),
        (7000, 9000, "prog/main/finish"),
        (9000, 10_000, "prog/main"),
    ]
    assert omp_slices(events, "omp_idle_threads", 0) == []
    assert omp_slices(events, "omp_management", 0) == [(1000, 1200, par), (6000, 6500, par)]
    assert omp_slices(events, "omp_management", 1) == [(1000, 1400, par), (6000, 6500, par)]
    assert omp_slices(events, "omp_fork", 0) == [(1000, 1200, par)]
    assert omp_slices(events, "omp_fork", 1) == [(1000, 1400, par)]
    assert omp_slices(events, "omp_ibarrier_wait", 1) == [(3000, 5000, f"{par}/!$omp implicit barrier @a.c:9")]
    # omp_fork is drawn inside the omp_management slice of the same interval: written after it
    track = [e["name"] for e in slices(events, "wait_state") if (e["pid"], e["tid"]) == (0, 1)]
    assert track.index("omp_management") < track.index("omp_fork")
    # and the report's values per thread are these sums
    drawn = durations(events)
    stored = values_per_location(tmp_path / "run.cosydb", {name for name, _ in drawn})
    assert stored[("omp_idle_threads", (0, 1))] == pytest.approx(4500 * NS)
    assert set(stored) == set(drawn)
    for key, seconds in drawn.items():
        assert seconds == pytest.approx(stored[key], abs=1e-12), key


def test_threads_left_out_of_a_smaller_team_idle_from_fork_to_join(tmp_path):
    """3 threads, a region forked at 100 with 2 (thread 0 in it 110..500, thread 1 120..500),
    joined at 600: thread 2 idles 100..600 (omp_limited_parallelism, inside an
    omp_idle_threads slice of the same interval), and threads 1 and 2 idle while thread 0
    runs main outside the fork..join, 0..100 and 600..1000."""
    b = smaller_team_run()
    load(b.write(tmp_path / "run"), tmp_path / "run.cosydb")
    path = tmp_path / "trace.json"
    write_trace(tmp_path / "run.cosydb", path)
    events = read_back(path)
    par = f"prog/main/{PAR}"
    assert omp_slices(events, "omp_limited_parallelism", 2) == [(100, 600, par)]
    assert omp_slices(events, "omp_limited_parallelism", 1) == []
    assert omp_slices(events, "omp_idle_threads", 2) == [
        (0, 100, "prog/main"),
        (100, 600, par),
        (600, 1000, "prog/main"),
    ]
    assert omp_slices(events, "omp_idle_threads", 1) == [(0, 100, "prog/main"), (600, 1000, "prog/main")]
    track = [e["name"] for e in slices(events, "wait_state") if (e["pid"], e["tid"]) == (0, 2)]
    assert track.index("omp_idle_threads", 1) < track.index("omp_limited_parallelism")
    stored = values_per_location(tmp_path / "run.cosydb", {"omp_idle_threads", "omp_limited_parallelism"})
    drawn = durations(events)
    assert {k: v for k, v in drawn.items() if k[0] in ("omp_idle_threads", "omp_limited_parallelism")} == {
        key: pytest.approx(value, abs=1e-12) for key, value in stored.items()
    }


def test_a_receive_before_its_send_is_marked_as_a_clock_violation(tmp_path):
    """1 tick = 1 µs. Rank 0 sends at 500 (MPI_Send 500..520); rank 1's MPI_Recv (100..488)
    records the receive at 488, 12 µs before the send; a second message (rank 1 sends at 600,
    rank 0 receives at 650) is in order. The arrow of the first is named after the violation
    and an instant event marks the receive; the second stays a plain message. Times are the
    format's microseconds, and the file claims no other unit."""
    b = TraceBuilder(2, timer_resolution=1_000_000)
    with b[0].open("main", 0, 1000):
        b[0].mpi_send(500, 520, dst=1, tag=3, nbytes=8)
        b[0].mpi_recv(560, 650, src=1, tag=4, nbytes=8)
    with b[1].open("main", 0, 1000):
        b[1].mpi_recv(100, 488, src=0, tag=3, nbytes=8)
        b[1].mpi_send(600, 610, dst=0, tag=4, nbytes=8)
    load(b.write(tmp_path / "run"), tmp_path / "run.cosydb")
    path = tmp_path / "trace.json"
    written = write_trace(tmp_path / "run.cosydb", path)
    document = json.loads(path.read_text())
    assert set(document) == {"traceEvents"}  # no displayTimeUnit: ts and dur are µs, the format's unit
    events = read_back(path)
    assert written["clock_violations"] == 1 and written["flows"] == 2
    (mark,) = [e for e in events if e["ph"] == "i"]
    assert (mark["name"], mark["pid"], mark["ts"], mark["s"]) == (
        "clock violation: receive 12 µs before its send",
        1,
        pytest.approx(488),
        "t",
    )
    assert mark["args"]["send_ts"] == pytest.approx(500) and mark["args"]["sender"] == "0:0"
    arrows = {(e["ph"], e["pid"]): e for e in events if e["ph"] in ("s", "f")}
    assert arrows[("s", 0)]["ts"] == pytest.approx(500) and arrows[("f", 1)]["ts"] == pytest.approx(488)
    violation = "clock violation: receive 12 µs before its send"
    assert arrows[("s", 0)]["name"] == arrows[("f", 1)]["name"] == f"message, {violation}"
    assert arrows[("f", 1)]["args"]["clock_violation"] == violation
    assert arrows[("s", 1)]["name"] == arrows[("f", 0)]["name"] == "message"
    assert "clock_violation" not in arrows[("f", 0)]["args"]
    (recv,) = [e for e in slices(events, "region") if e["name"] == "MPI_Recv" and e["pid"] == 1]
    assert (recv["ts"], recv["dur"]) == (pytest.approx(100), pytest.approx(388))
