"""Location partitions: the per-location models derived one partition at a time."""

from __future__ import annotations

import duckdb
import pyarrow.parquet as pq
import pytest
from conftest import real_trace

from cosydb import partitions, sqlviews, tables
from cosydb.errors import CosyError
from cosydb.loading import load

HYBRID = "lulesh_hyb-8x2-small"


def _plan(events: dict[int, int], groups: dict[int, int | None], limit: int) -> list[list[int]]:
    con = duckdb.connect()
    con.execute("CREATE TABLE events AS SELECT * FROM (VALUES (0, 0)) AS t(location_id, seq) LIMIT 0")
    for location_id, n in events.items():
        con.execute("INSERT INTO events SELECT ?, range FROM range(?)", [location_id, n])
    con.execute("CREATE TABLE locations (location_id BIGINT, location_group_id BIGINT)")
    for location_id, group in groups.items():
        con.execute("INSERT INTO locations VALUES (?, ?)", [location_id, group])
    return partitions.plan(con, limit)


def test_plan_packs_whole_processes_up_to_the_limit():
    # process 10: locations 1 and 4 (3 + 1 events), process 11: location 2 (5), process 12: location 3 (2)
    events = {1: 3, 2: 5, 3: 2, 4: 1}
    groups = {1: 10, 2: 11, 3: 12, 4: 10}
    assert _plan(events, groups, 6) == [[1, 4], [2], [3]]
    assert _plan(events, groups, 9) == [[1, 4, 2], [3]]
    assert _plan(events, groups, 100) == [[1, 4, 2, 3]]
    assert _plan(events, groups, 1) == [[1, 4], [2], [3]]  # a process larger than the limit stays whole
    assert _plan({}, {}, 5) == [[]]  # no events: one empty partition


def test_events_per_partition_is_checked(monkeypatch):
    monkeypatch.setenv("COSYDB_PARTITION_EVENTS", "0")
    with pytest.raises(Exception, match="COSYDB_PARTITION_EVENTS: '0' is not a positive number of events"):
        partitions.events_per_partition()
    monkeypatch.setenv("COSYDB_PARTITION_EVENTS", "1000")
    assert partitions.events_per_partition() == 1000


@pytest.fixture(scope="module")
def one_process_per_partition(real_db, tmp_path_factory):
    """The hybrid trace (8 MPI processes of 2 OpenMP threads) loaded with one partition
    per process and a slice per 300 p2p_events, and the same trace loaded whole (one
    partition, one slice)."""
    whole = real_db(HYBRID)
    db = tmp_path_factory.mktemp("partitioned") / "run.cosydb"
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("COSYDB_PARTITION_EVENTS", "1")
        patch.setattr(partitions, "ROWS_PER_SLICE", 300)  # messages in slices too
        meta = load(real_trace(HYBRID) / "traces.otf2", db)
    return meta, db / "experiments" / "1", whole / "experiments" / "1"


def test_each_partition_holds_whole_processes(one_process_per_partition):
    meta, directory, _ = one_process_per_partition
    assert meta["partitions"] == 8
    groups = dict(duckdb.sql(f"SELECT location_id, location_group_id FROM '{directory}/locations.parquet'").fetchall())
    files = tables.StoredTable("region_events", "derive", "", per_reader=True).files(directory)
    assert len(files) == 8
    per_file = [{groups[x] for x in pq.read_table(f, columns=["location_id"]).column(0).to_pylist()} for f in files]
    assert all(len(g) == 1 for g in per_file)  # one process per partition, with both of its threads
    assert len(set().union(*per_file)) == 8
    for f in files:
        threads = set(pq.read_table(f, columns=["location_id"]).column(0).to_pylist())
        assert len(threads) == 2


def test_a_sliced_table_has_a_file_per_slice(one_process_per_partition):
    _, directory, whole = one_process_per_partition
    derived = tables.derived()
    messages, p2p = derived["messages"], derived["p2p_events"]
    rows = duckdb.sql(f"SELECT count(*) FROM read_parquet({[str(f) for f in p2p.files(directory)]})").fetchone()[0]
    assert len(messages.files(directory)) == -(-rows // 300) > 1  # its rows: as the whole derive's, below
    assert len(messages.files(whole)) == 1


@pytest.mark.parametrize("table", sorted(tables.derived()))
def test_partitioned_derive_equals_the_whole_derive(one_process_per_partition, table):
    _, directory, whole = one_process_per_partition
    assert len(list(whole.glob("region_events-*.parquet"))) == 1  # the whole trace was one partition

    def relation(root):
        stored = tables.stored()[table]
        files = ", ".join(f"'{p}'" for p in stored.files(root))
        return f"read_parquet([{files}])"

    con = duckdb.connect()
    columns = con.sql(f"SELECT * FROM {relation(whole)} LIMIT 0")
    # sums of seconds may differ in the last bit with the order of summation
    shown = ", ".join(f"round({c}, 12)" if str(t) == "DOUBLE" else c for c, t in zip(columns.columns, columns.dtypes))
    for a, b in [(whole, directory), (directory, whole)]:
        extra = con.sql(
            f"SELECT count(*) FROM (SELECT {shown} FROM {relation(a)} EXCEPT ALL SELECT {shown} FROM {relation(b)})"
        ).fetchone()[0]
        assert extra == 0, f"{table}: {extra} rows of {a} not in {b}"
    # counter_summary: the trace has no counters; cnode_callpaths: only a profile has call-tree nodes
    assert con.sql(f"SELECT count(*) FROM {relation(whole)}").fetchone()[0] > 0 or table in (
        "counter_summary",
        "cnode_callpaths",
    )


def test_a_partition_reads_its_own_rows():
    objects = {o.name: o for o in sqlviews.ordered(sqlviews.load_objects(), set(tables.REGISTRY))}
    ref = partitions.partition_ref(objects, [3, 5], lambda name: f"part_{name}")
    assert ref("events") == "(select * from events where location_id in (3, 5))"  # written per reader
    assert ref("metric_values") == "(select * from metric_values where location_id in (3, 5))"
    assert ref("instance_tree") == "part_instance_tree"  # a partitioned table: its rows of the partition
    assert ref("regions") == "regions"  # definitions, and tables across locations, whole
    assert ref("messages") == "messages"
    view = ref("enterptr")  # a plain view is rendered with the same ref
    assert "part_instance_tree" in view and "part_event_calls" in view and "part_region_events" in view
    assert partitions.partition_ref(objects, [], lambda name: name)("events").endswith("where false)")


def test_a_sliced_table_renders_whole_or_one_slice():
    source = (
        "{{ config(materialized='table', sliced_by='p2p_events') }}\n"
        "select * from {{ ref('p2p_events') }} where {{ in_slice('comm_id, tag') }}"
    )
    obj = sqlviews.SqlObject("sliced", source, "view")
    sqlviews._render(obj, {"p2p_events": "model"})
    assert obj.sliced_by == "p2p_events" and obj.sql.endswith("where true")  # a view, Spark: every row
    one = sqlviews.render_reading(obj, lambda name: name, sqlviews.slice_of(2, 4))
    assert one.endswith("where hash(comm_id, tag) % 4 = 2")
    for config, error in [
        ("sliced_by='nothing'", "sliced_by='nothing' names no table or view"),
        ("partitioned=true, sliced_by='p2p_events'", "a table is partitioned or sliced, not both"),
    ]:
        bad = sqlviews.SqlObject("bad", f"{{{{ config(materialized='table', {config}) }}}}\nselect 1", "view")
        with pytest.raises(CosyError, match=error):
            sqlviews._render(bad, {"p2p_events": "model"})
