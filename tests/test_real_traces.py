"""Real Score-P traces: event counts against the otf2 reader, times against Scalasca."""

import collections

import otf2
import pytest

from cosydb import database
from cosydb.load import load
from cosydb.loaders.otf2_records import type_name

from conftest import real_trace, rows

PER_PATH = ["scorep-late_sender", "scorep-late_receiver", "scorep-barrier", "scorep-collectives"]
# In these mini-apps Scalasca's CSV hangs some calls under their preceding sibling
# (e.g. .../MPI_Comm_size/MPI_Comm_rank where the trace leaves MPI_Comm_size before
# entering MPI_Comm_rank), so they are compared per (region, rank).
PER_REGION = ["hpccg-8-small", "minife-8-small"]


@pytest.fixture(scope="module")
def loaded(tmp_path_factory):
    cache = {}

    def get(name):
        if name not in cache:
            db = tmp_path_factory.mktemp("real") / f"{name}.cosydb"
            load(real_trace(name), db)
            cache[name] = database.connect(db)
        return cache[name]
    return get


@pytest.mark.parametrize("name", PER_PATH + PER_REGION + ["ping-pong-otf2-papi", "lulesh_hyb-8x2-small"])
def test_event_counts_equal_the_otf2_reader(loaded, name):
    expected = collections.Counter()
    with otf2.reader.open(str(real_trace(name) / "traces.otf2")) as trace:
        for location, event in trace.events:
            expected[(location._ref, type_name(type(event).__name__))] += 1
    got = {(r["location_id"], r["type"]): r["n"]
           for r in rows(loaded(name), "SELECT location_id, type, count(*) AS n FROM events GROUP BY ALL")}
    assert got == dict(expected)


def _scalasca(name, metric):
    csv = next((real_trace(name) / "scalasca").glob("*.all.csv"))
    return f"(SELECT callpath AS path, rank, value FROM read_csv_auto('{csv}') WHERE metric = '{metric}')"


@pytest.mark.parametrize("name", PER_PATH)
def test_time_and_visits_per_callpath_and_rank_agree_with_scalasca(loaded, name):
    ours = """(SELECT c.path, l.rank, sum(i.excl_s) AS excl_s, count(*) AS visits
               FROM region_instances i JOIN callpaths c USING (experiment_id, callpath_id)
               JOIN locations l USING (experiment_id, location_id) GROUP BY ALL)"""
    time = rows(loaded(name), f"""
        SELECT r.path, r.rank, r.value, o.excl_s FROM {_scalasca(name, 'time')} r
        FULL JOIN {ours} o USING (path, rank)""")
    assert len(time) > 10
    for row in time:
        if row["excl_s"] is None:  # Scalasca lists every (call path, rank) cell; absent ones are zero
            assert row["value"] == 0, row
            continue
        # the CSV carries 6 significant digits
        assert row["excl_s"] == pytest.approx(row["value"], rel=1e-5, abs=1e-9), row
    visits = rows(loaded(name), f"""
        SELECT r.value, o.visits FROM {_scalasca(name, 'visits')} r FULL JOIN {ours} o USING (path, rank)""")
    assert all((row["visits"] or 0) == row["value"] for row in visits)


@pytest.mark.parametrize("name", PER_REGION)
def test_time_per_region_and_rank_agrees_with_scalasca(loaded, name):
    got = rows(loaded(name), f"""
        WITH ref AS (SELECT regexp_extract(path, '[^/]+$') AS region, rank, sum(value) AS value
                     FROM {_scalasca(name, 'time')} GROUP BY ALL),
             ours AS (SELECT r.name AS region, l.rank, sum(i.excl_s) AS excl_s
                      FROM region_instances i JOIN regions r USING (experiment_id, region_id)
                      JOIN locations l USING (experiment_id, location_id) GROUP BY ALL)
        SELECT * FROM ref FULL JOIN ours USING (region, rank)""")
    assert len(got) > 100
    for row in got:
        assert (row["excl_s"] or 0) == pytest.approx(row["value"] or 0, rel=1e-4, abs=1e-8), row


def test_hardware_counters_are_summarised(loaded):
    con = loaded("ping-pong-otf2-papi")
    counters = {r["counter"] for r in rows(con, "SELECT DISTINCT counter FROM counter_summary")}
    assert counters == {"PAPI_TOT_CYC", "PAPI_L2_TCM", "PAPI_BR_MSP"}
    # inclusive delta of a call path = sum of exclusive deltas over its subtree
    check = rows(con, """
        WITH s AS (SELECT * FROM counter_summary WHERE counter = 'PAPI_TOT_CYC')
        SELECT a.ancestor_id, s1.location_id, any_value(s1.incl) AS incl, sum(s2.excl) AS subtree
        FROM callpath_ancestors a
        JOIN s s1 ON s1.callpath_id = a.ancestor_id
        JOIN s s2 ON s2.callpath_id = a.descendant_id AND s2.location_id = s1.location_id
        GROUP BY ALL""")
    assert check and all(r["incl"] == pytest.approx(r["subtree"]) for r in check)
