"""The table registry and the loader protocol: a loader cannot lose or misplace a table."""

from __future__ import annotations

import types
from pathlib import Path

import pyarrow as pa
import pyarrow.parquet as pq
import pytest
from conftest import rows
from cosydb.loaders import LoadResult

from cosydb import database, loaders, tables
from cosydb.errors import CosyError
from cosydb.loading import load


def _events(location_id: int, times: list[int], regions: list[int], kinds: list[str]) -> pa.Table:
    """Enter/Leave events of one location in the registry's event schema (payload NULL)."""
    n = len(times)
    schema = tables.schema("events")
    data = {f.name: pa.nulls(n, f.type) for f in schema}
    data.update(
        location_id=pa.array([location_id] * n, pa.int64()),
        seq=pa.array(range(1, n + 1), pa.int64()),
        time=pa.array(times, pa.uint64()),
        type=pa.array(kinds).dictionary_encode(),
        region_id=pa.array(regions, pa.int32()),
    )
    return pa.table(data)


def toy_loader(events_written_as: str):
    """A loader of a made-up format (``*.toy``): two locations, ``main`` calling ``work``
    on each; its events go through ``sink.write`` (one call per location) or through the
    per-reader files ``sink.path`` names."""

    def read(path: Path, sink, workers=None) -> LoadResult:
        sink.write(
            "regions",
            [
                dict(region_id=0, name="main", role="FUNCTION", paradigm="USER"),
                dict(region_id=1, name="work", role="FUNCTION", paradigm="USER"),
            ],
        )
        sink.write("location_groups", [dict(location_group_id=r, name=f"rank {r}", rank=r) for r in (0, 1)])
        sink.write(
            "locations",
            [
                dict(
                    location_id=r,
                    name=f"rank {r}",
                    location_type="CPU_THREAD",
                    location_group_id=r,
                    rank=r,
                    thread=0,
                    number_of_events=4,
                )
                for r in (0, 1)
            ],
        )
        for r in (0, 1):
            batch = _events(r, [0, 100 + r, 300, 1000], [0, 1, 1, 0], ["ENTER", "ENTER", "LEAVE", "LEAVE"])
            if events_written_as == "write":
                sink.write("events", batch)
            else:
                pq.write_table(batch, sink.path("events", r))
        return LoadResult(
            source_path=str(path),
            number_of_locations=2,
            loaded="8 events",
            number_of_events=8,
            timer_resolution=1000,
            global_offset=0,
            trace_length=1000,
            first_time=0,
            last_time=1000,
        )

    return types.SimpleNamespace(
        FORMAT="toy",
        IS_TRACE=True,
        RUN_FILE=None,
        FILE_DOC="a toy trace",
        detect=lambda path: path.suffix == ".toy",
        read=read,
    )


@pytest.mark.parametrize("how", ["write", "path"])
def test_a_new_loader_keeps_every_event(how, tmp_path, monkeypatch):
    """One loader module plus one registry line: its events reach the events table and
    the derived model, whichever way it writes them, and the format is a trace."""
    toy = toy_loader(how)
    registered = loaders.registered
    monkeypatch.setattr(loaders, "registered", lambda: [*registered(), toy])
    source = tmp_path / "run" / "trace.toy"
    source.parent.mkdir()
    source.write_text("toy")
    meta = load(source, tmp_path / "t.cosydb")
    assert meta["loaded"] == "8 events"
    con = database.connect(tmp_path / "t.cosydb")
    try:
        assert rows(con, "SELECT format, is_profile, number_of_events FROM experiments") == [
            dict(format="toy", is_profile=False, number_of_events=8)
        ]
        assert con.execute("SELECT count(*) FROM events").fetchone()[0] == 8
        # work runs 200 (rank 0) and 199 ticks (rank 1) at 1000 ticks/s
        assert rows(
            con,
            "SELECT rank, excl_s FROM region_instances JOIN regions USING (experiment_id, region_id) "
            "JOIN locations AS l USING (experiment_id, location_id) WHERE regions.name = 'work' ORDER BY rank",
        ) == [dict(rank=0, excl_s=pytest.approx(0.2)), dict(rank=1, excl_s=pytest.approx(0.199))]
    finally:
        con.close()


def test_the_sink_refuses_what_no_table_owns(tmp_path):
    sink = tables.TableSink(tmp_path)
    with pytest.raises(ValueError, match="a loader writes no table 'event'"):
        sink.write("event", [])
    with pytest.raises(ValueError, match="a loader writes no table 'property_results'"):
        sink.write("property_results", [])
    with pytest.raises(ValueError, match="no column"):
        sink.write("regions", [dict(region_id=1, colour="red")])
    with pytest.raises(ValueError, match="columns differ"):
        sink.write("events", pa.table({"location_id": [1]}))
    with pytest.raises(ValueError, match="is one file"):
        sink.path("regions", 0)
    sink.write("regions", [dict(region_id=1, name="main")])
    with pytest.raises(ValueError, match="written twice"):
        sink.write("regions", [dict(region_id=2, name="other")])
    (tmp_path / "events.parquet").write_bytes(b"")  # a name the catalog would never read
    with pytest.raises(ValueError, match="files no table owns: events.parquet"):
        sink.finish()


def test_finish_writes_the_missing_tables_empty(tmp_path):
    sink = tables.TableSink(tmp_path)
    sink.write("events", _events(0, [0, 5], [0, 0], ["ENTER", "LEAVE"]))
    sink.write("events", _events(1, [0, 5], [0, 0], ["ENTER", "LEAVE"]))
    sink.finish()
    written = {p.name for p in tmp_path.glob("*.parquet")}
    expected = {
        p.name for t in tables.REGISTRY.values() if t.writer in ("loader", "report") for p in [t.path(tmp_path)]
    } | {"events-1.parquet"}
    assert written == expected
    assert pq.read_table(tmp_path / "events-1.parquet").column("location_id").to_pylist() == [1, 1]
    assert pq.read_table(tmp_path / "hpf_decls.parquet").schema.equals(tables.schema("hpf_decls"))


def test_every_table_of_the_catalog_is_registered(tmp_path, real_db):
    """The catalog's table views are the registry's tables and the derived ones, and each
    stored file's schema is the registry's (the catalog adds experiment_id)."""
    db = real_db("scorep-late_sender")
    con = database.connect(db)
    try:
        views = {name for (name,) in con.execute("SELECT view_name FROM duckdb_views() WHERE NOT internal").fetchall()}
        assert set(tables.stored()) <= views
        for name, table in tables.REGISTRY.items():
            columns = [c for (c,) in con.execute(f"SELECT column_name FROM (DESCRIBE {name})").fetchall()]
            expected = table.schema.names if table.keyed else ["experiment_id", *table.schema.names]
            assert columns == expected, name
    finally:
        con.close()
    directory = Path(db) / database.EXPERIMENTS / "1"
    files = {p.name for p in directory.glob("*.parquet")}
    owned = {p.name for t in tables.stored().values() for p in t.files(directory)}
    assert files == owned


def test_no_loader_claims_a_stranger(tmp_path):
    stranger = tmp_path / "notes.txt"
    stranger.write_text("hello")
    with pytest.raises(CosyError, match="not a format cosydb reads"):
        loaders.loader_for(stranger)
