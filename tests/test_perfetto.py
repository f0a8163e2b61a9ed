"""`cosydb export --format perfetto`: the timeline as Chrome trace-event JSON, read back here
by the format's own rules (Trace Event Format: complete events "X" with ts/dur in
microseconds, flow events "s"/"f" with an id, metadata "M"), never by cosydb's code."""

import json
from collections import Counter, defaultdict

import pytest
from conftest import NS, rows
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
        assert e["ph"] in ("M", "X", "s", "f"), e
        assert isinstance(e["pid"], int) and isinstance(e["name"], str)
        if e["ph"] == "M":
            assert e["name"] in ("process_name", "process_sort_index", "thread_name") and "args" in e
            continue
        assert isinstance(e["tid"], int) and isinstance(e["ts"], int | float)
        if e["ph"] == "X":
            assert e["dur"] >= 0
            tracks[(e["pid"], e["tid"])].append((e["ts"], e["ts"] + e["dur"]))
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


#: wait states each real trace must show: MPI, and on the hybrid one OpenMP barriers too
EXPECTED_WAITS = {
    "hpccg-8-small": {"mpi_latesender", "mpi_latereceiver", "mpi_wait_nxn"},
    "lulesh_hyb-8x2-small": {"mpi_latesender", "mpi_latereceiver", "mpi_wait_nxn", "omp_ibarrier_wait"},
}


@pytest.fixture(scope="module", params=sorted(EXPECTED_WAITS))
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
    assert written == dict(slices=3, flows=0, wait_states=1, locations=1)
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
