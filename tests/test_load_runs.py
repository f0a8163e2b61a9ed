"""Several runs in one load (``loading.load_runs``, ``cosydb load A B C``): each run's
experiment holds what a load of that run alone holds, the runs are committed together or
not at all, and runs are derived together only where that changes nothing."""

import shutil
from pathlib import Path

import pyarrow.parquet as pq
import pytest
from conftest import (
    SCALASCA_TRACES,
    assert_clean_failure,
    assert_stored_tables_equal,
    cosydb,
    evaluate,
    real_trace,
)
from cosydb.fixtures.generator import TraceBuilder

from cosydb import database, tables
from cosydb.errors import CosyError
from cosydb.loading import _batches, load, load_runs


def message_run(late_ns: int) -> TraceBuilder:
    """Two ranks: rank 1 waits ``late_ns`` for rank 0's message, then both meet at a barrier."""
    b = TraceBuilder(2)
    for r in range(2):
        with b[r].open("main", 0, 2000):
            if r == 0:
                b[r].region("work", 10, 100 + late_ns)
                b[r].mpi_send(100 + late_ns, 120 + late_ns, dst=1, tag=3, nbytes=64)
            else:
                b[r].mpi_recv(100, 130 + late_ns, src=0, tag=3, nbytes=64)
            b[r].collective("MPI_Barrier", 1000 + 100 * r, 1500)
    return b


def written_tables(directory: Path) -> set[str]:
    return {p.name for p in directory.iterdir()}


def assert_each_as_loaded_alone(together: Path, alone: list[Path]) -> None:
    """Experiment k of ``together`` has the files, the rows and the load warnings of database ``alone[k - 1]``."""
    for k, single in enumerate(alone, start=1):
        ours, theirs = database.experiment_dir(together, k), database.experiment_dirs(single)[0]
        assert written_tables(ours) == written_tables(theirs), k
        assert_stored_tables_equal(together, single, (k, 1))
        warnings = (pq.read_table(tables.REGISTRY["load_warnings"].path(d)).to_pylist() for d in (ours, theirs))
        assert next(warnings) == next(warnings), k


def test_runs_loaded_together_hold_what_each_holds_loaded_alone(tmp_path):
    """Two constructed traces and a profile between them, derived by the same statements:
    each experiment as a load of it alone."""
    late, early = (message_run(ns).write(tmp_path / f"{ns}" / "run") for ns in (300, 50))
    runs = [late, real_trace("scorep-late_sender") / "profile.cubex", early]
    metas = load_runs(runs, tmp_path / "together.cosydb", ["late", "profiled", "early"])
    assert [(m["experiment_id"], m["name"]) for m in metas] == [(1, "late"), (2, "profiled"), (3, "early")]
    assert len({m["phase_seconds"]["derive"] for m in metas}) == 1  # the seconds of the one derive
    alone = []
    for k, run in enumerate(runs):
        load(run, tmp_path / f"alone{k}.cosydb")
        alone.append(tmp_path / f"alone{k}.cosydb")
    assert_each_as_loaded_alone(tmp_path / "together.cosydb", alone)
    assert not list((tmp_path / "together.cosydb" / database.EXPERIMENTS).glob(".*"))  # no scratch left


def test_an_experiment_evaluated_beside_others_reads_only_its_own_files(tmp_path):
    """Three runs in one database: the evaluation of one sees only its events (the stored
    tables are shadowed by views over its files while it runs, and only then) and finds
    its run's Late Sender, the 200 ns rank 1 waits for rank 0's message."""
    runs = [message_run(ns).write(tmp_path / f"{ns}" / "run") for ns in (300, 200, 50)]
    db = tmp_path / "three.cosydb"
    load_runs(runs, db, ["late", "middle", "early"])
    con = database.connect(db)
    try:
        every = "SELECT list(DISTINCT experiment_id ORDER BY experiment_id) FROM events"
        shadowing = "SELECT count(*) FROM duckdb_views() WHERE database_name = 'temp' AND NOT internal"
        with database.experiments_only(con, [2]):
            assert con.execute(every).fetchone() == ([2],)
        with database.experiments_only(con, [3, 1]):
            assert con.execute(every).fetchone() == ([1, 3],)
        assert con.execute(every).fetchone() == ([1, 2, 3],)
        with database.experiments_only(con, [1, 2, 3]):  # nothing to shadow
            assert con.execute(shadowing).fetchone() == (0,)
        assert con.execute(shadowing).fetchone() == (0,)  # the views are dropped after the block
    finally:
        con.close()
    waits = evaluate(db, "mpi_latesender", experiment="middle")["results"]
    assert [(r["callpath"], r["rank"], r["value"]) for r in waits if r["rank"] is not None] == [
        ("prog/main/MPI_Recv", 1, pytest.approx(200e-9))
    ]


def test_an_evaluation_shadows_only_the_tables_it_reads(tmp_path, monkeypatch):
    """Beside other experiments, an evaluation shadows the stored tables that its entries and
    their plain views read (and events, which it counts), not every one of the 50: a view
    each binds its files. mpi_latesender reads the Late Sender waits, not the counters."""
    runs = [message_run(ns).write(tmp_path / f"{ns}" / "run") for ns in (300, 200)]
    db = tmp_path / "two.cosydb"
    load_runs(runs, db, ["late", "middle"])
    shadowed = []
    create = database.create_table_view

    def recorded(con, table, experiments, temporary=False):
        shadowed.append(table.name)
        create(con, table, experiments, temporary)

    monkeypatch.setattr(database, "create_table_view", recorded)
    waits = evaluate(db, "mpi_latesender", experiment="middle")["results"]
    assert [(r["rank"], r["value"]) for r in waits] == [(None, pytest.approx(200e-9)), (1, pytest.approx(200e-9))]
    assert {"events", "mpi_latesender_waits"} <= set(shadowed) and "counter_summary" not in shadowed
    assert len(set(shadowed)) < 10 < len(tables.stored())


def test_batches_group_runs_of_the_same_tables_within_one_partition(tmp_path):
    """``_batches``: runs whose loader wrote the same tables, in load order, at most ``limit``
    events together; a run beyond the limit alone."""
    dirs = []
    for k, tables_written in enumerate([("events", "regions"), ("events",), ("events", "regions"), ("events",)]):
        d = tmp_path / str(k)
        d.mkdir()
        for name in tables_written:
            tables.REGISTRY[name].path(d).write_bytes(b"")
        dirs.append(d)
    sizes = [(1, dirs[0], 10), (2, dirs[1], 10), (3, dirs[2], 10), (4, dirs[3], 100)]
    assert _batches(sizes, 50) == [[(1, dirs[0]), (3, dirs[2])], [(2, dirs[1])], [(4, dirs[3])]]
    assert _batches(sizes, 15) == [[(1, dirs[0])], [(2, dirs[1])], [(3, dirs[2])], [(4, dirs[3])]]
    assert _batches(sizes, 110) == [[(1, dirs[0]), (3, dirs[2])], [(2, dirs[1]), (4, dirs[3])]]


def test_a_run_that_fails_leaves_the_database_as_it_was(tmp_path):
    """The second of three runs has a truncated event file: one error naming it, and the
    database holds what it held before (no experiment of the first run, no staging)."""
    db = tmp_path / "x.cosydb"
    load(message_run(10).write(tmp_path / "first" / "run"), db)
    before = sorted(p.relative_to(db) for p in db.rglob("*"))
    views = (db / database.VIEWS_FILE).read_bytes()
    bad = tmp_path / "bad"
    shutil.copytree(real_trace("scorep-late_sender"), bad)
    evt = bad / "traces" / "1.evt"
    evt.chmod(0o644)
    evt.write_bytes(evt.read_bytes()[: evt.stat().st_size // 2])
    runs = [message_run(20).write(tmp_path / "a" / "run"), bad, message_run(30).write(tmp_path / "b" / "run")]
    with pytest.raises(CosyError, match="1.evt"):
        load_runs(runs, db)
    assert sorted(p.relative_to(db) for p in db.rglob("*")) == before
    assert (db / database.VIEWS_FILE).read_bytes() == views


def test_the_command_loads_each_trace_given(tmp_path):
    runs = [message_run(k).write(tmp_path / f"r{k}" / "run") for k in (40, 80)]
    db = tmp_path / "two.cosydb"
    loaded = cosydb("load", *runs, "--db", db)
    assert loaded.returncode == 0, loaded.stderr
    assert [line.split(" as ")[1] for line in loaded.stdout.splitlines()] == [
        f"experiment 1 'run' into {db}",
        f"experiment 2 'run-2' into {db}",
    ]
    named = cosydb("load", *runs, "--db", tmp_path / "named.cosydb", "--name", "one")
    assert_clean_failure(named, "--name: names one experiment: give it with one trace, not 2")
    assert not (tmp_path / "named.cosydb").exists()


@pytest.mark.slow
def test_the_shared_traces_loaded_together_equal_each_loaded_alone(tmp_path):
    """The seven shared traces in one load: each experiment has the files, rows and load
    warnings of the trace loaded alone (into a database of its own: the session's shared
    ones hold other tests' reports)."""
    together = tmp_path / "together.cosydb"
    load_runs([real_trace(name) for name in SCALASCA_TRACES], together)
    alone = [load(real_trace(name), tmp_path / f"{name}.cosydb")["db"] for name in SCALASCA_TRACES]
    assert_each_as_loaded_alone(together, [Path(db) for db in alone])


def test_the_python_api_loads_a_list_of_runs(tmp_path):
    import cosydb

    runs = [message_run(k).write(tmp_path / f"r{k}" / "run") for k in (40, 80)]
    db = cosydb.load(runs, tmp_path / "two.cosydb", names=["fast", "slow"])
    assert [(e["experiment_id"], e["name"]) for e in db.experiments().to_pylist()] == [(1, "fast"), (2, "slow")]
