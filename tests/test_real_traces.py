"""Real Score-P traces: event counts against the otf2 reader (Scalasca's values: test_scalasca_agreement)."""

import collections

import duckdb
import otf2
import pytest
from conftest import LARGE, SCALASCA_TRACES, assert_stored_tables_equal, copy_of, real_trace, rows
from cosydb.loaders.otf2_records import type_name

from cosydb import database, tables
from cosydb.loading import PARQUET_OPTIONS


@pytest.fixture
def loaded(real_db):
    return lambda name: database.connect(real_db(name))


@pytest.mark.parametrize("name", SCALASCA_TRACES + ["ping-pong-otf2", "ping-pong-otf2-papi"])
def test_event_counts_equal_the_otf2_reader(loaded, name):
    expected = collections.Counter()
    with otf2.reader.open(str(real_trace(name) / "traces.otf2")) as trace:
        for location, event in trace.events:
            expected[(location._ref, type_name(type(event).__name__))] += 1
    got = {
        (r["location_id"], r["type"]): r["n"]
        for r in rows(loaded(name), "SELECT location_id, type, count(*) AS n FROM events GROUP BY ALL")
    }
    assert got == dict(expected)


def test_hardware_counters_are_summarised(loaded):
    con = loaded("ping-pong-otf2-papi")
    counters = {r["counter"] for r in rows(con, "SELECT DISTINCT counter FROM counter_summary")}
    assert counters == {"PAPI_TOT_CYC", "PAPI_L2_TCM", "PAPI_BR_MSP"}
    # inclusive delta of a call path = sum of exclusive deltas over its subtree
    check = rows(
        con,
        """
        WITH s AS (SELECT * FROM counter_summary WHERE counter = 'PAPI_TOT_CYC')
        SELECT a.ancestor_id, s1.location_id, any_value(s1.incl) AS incl, sum(s2.excl) AS subtree
        FROM callpath_ancestors a
        JOIN s s1 ON s1.callpath_id = a.ancestor_id
        JOIN s s2 ON s2.callpath_id = a.descendant_id AND s2.location_id = s1.location_id
        GROUP BY ALL""",
    )
    assert check and all(r["incl"] == pytest.approx(r["subtree"]) for r in check)


@pytest.mark.parametrize("name", ["minife-8-small", "lulesh_hyb-8x2-small"])
def test_profile_times_are_exact_tick_sums(loaded, name):
    """callpath_profile's incl_s / excl_s are the call path's tick sums divided once by
    the resolution, equal to the last bit: a sum of per-instance seconds varies in its
    last bits with the order in which DuckDB's threads add them. Computed here from the
    region instances: excl = own ticks minus the ticks of the instances they called."""
    got = rows(
        loaded(name),
        """
        WITH ticks AS (
            SELECT i.callpath_id, i.location_id, i.leave_time::BIGINT - i.enter_time::BIGINT AS incl,
                   i.leave_time::BIGINT - i.enter_time::BIGINT
                   - coalesce((SELECT sum(c.leave_time::BIGINT - c.enter_time::BIGINT) FROM region_instances c
                               WHERE c.location_id = i.location_id AND c.caller_seq = i.enter_seq), 0) AS excl
            FROM region_instances i
        ),
        expected AS (
            SELECT callpath_id, location_id, count(*) AS executions,
                   sum(incl) / any_value(x.timer_resolution) AS incl_s,
                   sum(excl) / any_value(x.timer_resolution) AS excl_s
            FROM ticks CROSS JOIN experiments x GROUP BY ALL
        )
        SELECT count(*) AS cells,
               count(*) FILTER (WHERE p.executions != e.executions OR p.incl_s != e.incl_s
                                OR p.excl_s != e.excl_s OR p.callpath_id IS NULL) AS differing
        FROM expected e LEFT JOIN callpath_profile p USING (callpath_id, location_id)
        """,
    )[0]
    assert got["cells"] > 500
    assert got["differing"] == 0


@pytest.mark.large
def test_the_large_traces_report_does_not_depend_on_the_order_of_its_rows(real_db, tmp_path):
    """The derive writes its tables in parallel, so two loads of one trace store the same rows in
    other orders, and DuckDB plans the report's joins from the Parquet files' statistics: with
    one load's order mpi_latesender_wo_matches paired 500k x 500k rows and failed out of memory
    (docs/performance.md, stop 58). minife-16-large with every derived table's rows rewritten
    in a random order stores the same report as the load itself, and every table the same rows."""
    from cosydb.report import run

    loaded = real_db(LARGE)
    shuffled = copy_of(loaded, tmp_path)
    directory = database.experiment_dirs(shuffled)[0]
    con = duckdb.connect()
    con.execute("SELECT setseed(0.58)")
    rewritten = 0
    for table in tables.derived().values():
        for path in table.files(directory):
            scratch = path.with_name(path.name + ".shuffled")
            rows_in_random_order = f"SELECT * FROM read_parquet('{path}') ORDER BY random()"
            con.execute(f"COPY ({rows_in_random_order}) TO '{scratch}' ({PARQUET_OPTIONS})")  # as a load writes
            scratch.replace(path)
            rewritten += 1
    assert rewritten >= 19
    run(shuffled, threshold=0)
    run(loaded, threshold=0)
    assert_stored_tables_equal(shuffled, loaded)
