"""Hardware-counter deltas of region instances (counter_instances) and ratios of counters.

Rule (OTF2 Metric record: "Synchronous metrics are always located right before the
according enter and leave event"; Score-P writes them so, with the event's timestamp):
a Metric record belongs to the next Enter / Leave of its location. The expected values
here are computed independently: from the raw records with the ``otf2`` reader, or by
hand from a constructed trace.
"""

import collections
import math

import otf2
import pytest
from conftest import real_trace, rows
from cosydb.fixtures.generator import TraceBuilder

from cosydb import database
from cosydb.loading import load

PAPI = "ping-pong-otf2-papi"
ROOT = "<program root>"


def otf2_counter_deltas(anchor):
    """{(region, rank, counter): [visits, incl, excl]} from the raw records: each Metric record
    holds the counter values of the next Enter / Leave of its location; incl = value at the
    Leave - value at the Enter, excl = incl - the incl of the instances called. An instance
    whose Enter or Leave has no record (the program root: ProgramBegin / ProgramEnd) has none."""
    result = collections.defaultdict(lambda: [0, 0, 0])
    stacks = collections.defaultdict(list)  # location -> open frames
    pending = {}  # location -> the values of the records since its last region event
    with otf2.reader.open(str(anchor)) as trace:
        for location, event in trace.events:
            kind = type(event).__name__
            if kind == "Metric":
                values = dict(zip((m.name for m in event.metric.members), event.values))
                pending.setdefault(location, {}).update(values)
                continue
            if kind not in ("Enter", "Leave", "ProgramBegin", "ProgramEnd"):
                continue
            own = pending.pop(location, None)
            stack = stacks[location]
            if kind in ("Enter", "ProgramBegin"):
                name = event.region.name if kind == "Enter" else ROOT
                stack.append(dict(name=name, enter=own, callees=collections.Counter()))
                continue
            frame = stack.pop()
            at_enter, at_leave = frame["enter"], own
            if at_enter is None or at_leave is None:
                continue
            rank = location.group._ref
            for counter in at_leave:
                incl = at_leave[counter] - at_enter[counter]
                cell = result[(frame["name"], rank, counter)]
                cell[0] += 1
                cell[1] += incl
                cell[2] += incl - frame["callees"][counter]
                if stack:
                    stack[-1]["callees"][counter] += incl
    return dict(result)


@pytest.fixture
def papi(real_db):
    con = database.connect(real_db(PAPI))
    yield real_trace(PAPI) / "traces.otf2", con
    con.close()


def cosydb_counter_deltas(con):
    return {
        (r["region"], r["rank"], r["counter"]): [r["visits"], r["incl"], r["excl"]]
        for r in rows(
            con,
            f"""
        SELECT CASE WHEN g.role = 'ARTIFICIAL' THEN '{ROOT}' ELSE g.name END AS region, l.rank, c.counter,
               count(*) AS visits, sum(c.incl) AS incl, sum(c.excl) AS excl
        FROM counter_instances c
        JOIN region_instances i USING (experiment_id, location_id, enter_seq)
        JOIN regions g USING (experiment_id, region_id)
        JOIN locations l USING (experiment_id, location_id)
        GROUP BY ALL""",
        )
    }


def test_real_trace_counters_per_region_and_rank_equal_the_raw_records(papi):
    anchor, con = papi
    expected = otf2_counter_deltas(anchor)
    got = cosydb_counter_deltas(con)
    assert {c for _, _, c in expected} == {"PAPI_TOT_CYC", "PAPI_L2_TCM", "PAPI_BR_MSP"}
    # 2 ranks x (main, Init, Comm_size, Comm_rank, Send, Recv, Finalize); not the root, without records
    assert len(expected) == 2 * 7 * 3
    assert got == expected


def test_real_trace_known_values(papi):
    anchor, con = papi
    got = cosydb_counter_deltas(con)
    # the issue: MPI_Init on rank 0 counts 467,279 - 2,580 L2 misses (records before its Enter / Leave)
    assert got[("MPI_Init", 0, "PAPI_L2_TCM")] == [1, 464_699, 464_699]
    assert got[("MPI_Init", 1, "PAPI_L2_TCM")] == [1, 166_390, 166_390]
    # main: the records before its Enter and its Leave; the root (ProgramBegin / ProgramEnd carry
    # no records) has no counter values, so no negative exclusive count (was -486,191 on rank 0)
    assert got[("int main(int, char**)", 0, "PAPI_L2_TCM")] == [1, 488_771 - 2_191, 11_175]
    assert not [key for key in got if key[0] == ROOT]
    assert all(incl >= 0 and excl >= 0 for _, incl, excl in got.values())


COUNTERS = ("PAPI_TOT_CYC", "PAPI_L2_TCM")


def counter_run():
    """Hand-built increments. Rank 0: main { init, solve { kernel, kernel } }, with counts
    between the calls; rank 1: main { a, b }, b entered at the timestamp a is left."""
    b = TraceBuilder(2, counters=COUNTERS)
    r0 = b[0]
    r0.measure(0)
    r0.enter(0, "main")
    r0.region("init", 10, 50, counters={"PAPI_TOT_CYC": 300, "PAPI_L2_TCM": 30})
    r0.measure(100, PAPI_TOT_CYC=50, PAPI_L2_TCM=2)  # in main, between init and solve
    r0.enter(100, "solve")
    r0.region("kernel", 200, 300, counters={"PAPI_TOT_CYC": 1000, "PAPI_L2_TCM": 40})
    r0.region("kernel", 400, 500, counters={"PAPI_TOT_CYC": 2000, "PAPI_L2_TCM": 60})
    r0.measure(900, PAPI_TOT_CYC=500, PAPI_L2_TCM=5)  # in solve, after the kernels
    r0.leave(900)
    r0.measure(1000, PAPI_TOT_CYC=7, PAPI_L2_TCM=1)
    r0.leave(1000)
    r1 = b[1]
    r1.enter(0, "main")
    r1.measure(0)  # right after enter(0): main's Enter record, written before the Enter
    r1.region("a", 100, 200, counters={"PAPI_TOT_CYC": 10, "PAPI_L2_TCM": 1})
    r1.region("b", 200, 300, counters={"PAPI_TOT_CYC": 20, "PAPI_L2_TCM": 2})
    r1.measure(1000, PAPI_TOT_CYC=4)
    r1.leave(1000)
    return b


EXPECTED = {  # (region, rank, counter): [visits, incl, excl], by hand from counter_run
    ("init", 0, "PAPI_TOT_CYC"): [1, 300, 300],
    ("init", 0, "PAPI_L2_TCM"): [1, 30, 30],
    ("kernel", 0, "PAPI_TOT_CYC"): [2, 3000, 3000],
    ("kernel", 0, "PAPI_L2_TCM"): [2, 100, 100],
    ("solve", 0, "PAPI_TOT_CYC"): [1, 3500, 500],
    ("solve", 0, "PAPI_L2_TCM"): [1, 105, 5],
    ("main", 0, "PAPI_TOT_CYC"): [1, 300 + 50 + 3500 + 7, 57],
    ("main", 0, "PAPI_L2_TCM"): [1, 138, 3],
    ("a", 1, "PAPI_TOT_CYC"): [1, 10, 10],
    ("a", 1, "PAPI_L2_TCM"): [1, 1, 1],
    ("b", 1, "PAPI_TOT_CYC"): [1, 20, 20],
    ("b", 1, "PAPI_L2_TCM"): [1, 2, 2],
    ("main", 1, "PAPI_TOT_CYC"): [1, 34, 4],
    ("main", 1, "PAPI_L2_TCM"): [1, 3, 0],
}  # the program root: no records at ProgramBegin / ProgramEnd, no counter values


def test_generator_writes_metric_records_before_their_enter_and_leave(tmp_path):
    anchor = counter_run().write(tmp_path / "run")
    with otf2.reader.open(str(anchor)) as trace:
        events = [(location.group._ref, type(e).__name__, e.time) for location, e in trace.events]
    per_rank = collections.defaultdict(list)
    for rank, kind, time in events:
        per_rank[rank].append((kind, time))
    for seq in per_rank.values():
        for (kind, time), (after, then) in zip(seq, seq[1:]):
            if kind == "Metric":  # every record directly precedes an Enter / Leave of the same time
                assert after in ("Enter", "Leave") and then == time
        assert all(seq[i - 1][0] == "Metric" for i, (kind, _) in enumerate(seq) if kind in ("Enter", "Leave"))


def test_constructed_counter_deltas_by_hand(tmp_path):
    b = counter_run()
    db = tmp_path / "run.cosydb"
    load(b.write(tmp_path / "run"), db)
    con = database.connect(db)
    got = cosydb_counter_deltas(con)
    assert got == EXPECTED
    # and the summary per call path: sums of the instances
    summary = {
        (r["path"], r["rank"]): (r["executions"], r["incl"], r["excl"])
        for r in rows(
            con,
            """
        SELECT c.path, l.rank, s.executions, s.incl, s.excl FROM counter_summary s
        JOIN callpaths c USING (experiment_id, callpath_id) JOIN locations l USING (experiment_id, location_id)
        WHERE s.counter = 'PAPI_L2_TCM'""",
        )
    }
    assert summary[("prog/main/solve/kernel", 0)] == (2, 100, 100)
    assert summary[("prog/main/solve", 0)] == (1, 105, 5)
    assert summary[("prog/main", 1)] == (1, 3, 0) and ("prog", 1) not in summary
    con.close()


def test_zero_denominator_ratio_is_not_evaluable_never_inf(tmp_path):
    """Misses without loads and stores: the cache ratio has denominator 0. The rows keep the
    misses but have no severity and no condition (not evaluable), so none is a problem."""
    from cosydb.report import run

    b = TraceBuilder(1, counters=("PAPI_L1_DCM", "PAPI_LD_INS", "PAPI_SR_INS"))
    b[0].measure(0)
    b[0].enter(0, "main")
    b[0].region("kernel", 100, 400, counters={"PAPI_L1_DCM": 50})
    b[0].measure(1000)
    b[0].leave(1000)
    db = tmp_path / "run.cosydb"
    load(b.write(tmp_path / "run"), db)
    result = run(db, threshold=0)
    assert result["bottleneck"] is None or "cache" not in result["bottleneck"]
    assert not [r for r in result["results"] if "cache" in r["property"] and r["status"] == "evaluated"]
    con = database.connect(db)
    stored = rows(
        con,
        "SELECT property, callpath, location_id, condition, severity, value, is_problem "
        "FROM property_results WHERE status = 'evaluated'",
    )
    con.close()
    assert all(r["severity"] is None or math.isfinite(r["severity"]) for r in stored)
    cache = {(r["property"], r["callpath"], r["location_id"]): r for r in stored if "cache" in r["property"]}
    for key in [("l1_data_cache_misses", "prog/main/kernel", None), ("l1_data_cache_misses", "prog", None)]:
        row = cache[key]
        assert row["value"] == 50 and row["severity"] is None and row["condition"] is None, key
        assert row["is_problem"] is False
    # per instance: the kernel instance is not evaluable, so no instance holds for the call path
    row = cache[("l1d_cache_misses_per_instance", "prog/main/kernel", 0)]
    assert row["severity"] is None and not row["condition"] and row["is_problem"] is False
    assert not any(r["is_problem"] for r in cache.values())
