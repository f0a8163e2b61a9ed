"""The Python API (cosydb.open / cosydb.load / Database) on a constructed run: the same
answers as the command line, as Arrow tables."""

import json

import pyarrow as pa
import pytest
from conftest import NS
from test_otf_v1 import exchange

import cosydb
from cosydb.errors import CosyError


@pytest.fixture(scope="module")
def db(tmp_path_factory):
    folder = tmp_path_factory.mktemp("api")
    return cosydb.load(exchange().write(folder / "run"), folder / "run.cosydb")


def test_load_open_and_tables(db):
    assert isinstance(db, cosydb.Database)
    same = cosydb.open(db.path)
    experiments = same.experiments()
    assert isinstance(experiments, pa.Table)
    assert experiments.column("name").to_pylist() == ["run"]
    messages = same.table("messages")  # exchange(): rank 0 -> 1 (tag 7), rank 2 -> 0 (tag 9)
    assert sorted(messages.column("tag").to_pylist()) == [7, 9]
    assert "experiment_id" not in messages.column_names


def test_sql_with_a_pattern_of_the_catalog(db):
    waits = db.sql("SELECT location_id, idle_s FROM {{ ref('mpi_latesender_matches') }}")
    assert waits.to_pylist() == [{"location_id": 1, "idle_s": pytest.approx(400 * NS)}]


def test_report_as_tables_equals_the_json_report(db, tmp_path):
    from typer.testing import CliRunner

    from cosydb.cli import app

    report = db.report(threshold=0)
    assert isinstance(report.problems, pa.Table) and report.problems.num_rows > 0
    late = [r for r in report.results.to_pylist() if r["property"] == "mpi_latesender" and r["rank"] == 1]
    assert late[0]["value"] == pytest.approx(400 * NS)
    printed = CliRunner().invoke(app, ["report", str(db.path), "--threshold", "0", "--format", "json"])
    assert printed.exit_code == 0, printed.output
    from_cli = json.loads(printed.output)
    assert [p["value"] for p in from_cli["problems"]] == report.problems.column("value").to_pylist()
    assert from_cli["bottleneck"] == report.bottleneck


def test_errors_name_what_is_wrong(db, tmp_path):
    with pytest.raises(CosyError, match="not a cosydb database"):
        cosydb.open(tmp_path)
    with pytest.raises(CosyError, match="no table, view, pattern or property 'nope'"):
        db.table("nope")
    with pytest.raises(CosyError, match="reads only"):
        db.sql("CREATE TABLE x AS SELECT 1")


@pytest.mark.parametrize(
    "query, problem",
    [
        ("SELECT * FROM nosuchtable", "Catalog Error: Table with name nosuchtable does not exist"),
        ("SELEKT 1", 'Parser Error: syntax error at or near "SELEKT"'),
        ("SELECT nosuchcolumn FROM messages", 'Binder Error: Referenced column "nosuchcolumn" not found'),
        ("SELECT CAST('x' AS INTEGER)", "Conversion Error: Could not convert string 'x'"),
    ],
)
def test_sql_errors_are_cosy_errors_naming_the_database(db, query, problem):
    """What DuckDB rejects is a CosyError (cosydb.CosyError too), one line: the database, then
    DuckDB's message; never DuckDB's own exception."""
    import duckdb

    assert cosydb.CosyError is CosyError
    with pytest.raises(CosyError) as raised:
        db.sql(query)
    assert not isinstance(raised.value, duckdb.Error)
    assert raised.value.path == str(db.path)
    assert problem in raised.value.problem and "\n" not in str(raised.value)
    assert str(raised.value).startswith(f"{db.path}: ")


def test_an_error_while_rows_stream_is_a_cosy_error_and_frees_the_database(db):
    """DuckDB fails after the first batches (Arrow carries its error as an OSError); a block
    that leaves rows unread or raises leaves the database usable (a stream left open made
    the next connection to the file wait forever); rows read after the block are an error."""
    late = "SELECT CASE WHEN i > 3000000 THEN error('late failure') ELSE i END AS x FROM range(4000000) t(i)"
    # DuckDB reports the failure, or, when a worker thread meets it first, the interrupt it causes
    with pytest.raises(CosyError, match="late failure|INTERRUPT Error"), db.query(late) as batches:
        assert batches.read_next_batch().num_rows == 10_000  # the first batch came
        batches.read_all()
    with db.query("SELECT * FROM range(100000)", batch_rows=1000) as batches:
        assert batches.read_next_batch().num_rows == 1000  # the rest left unread
    with pytest.raises(ZeroDivisionError), db.query("SELECT * FROM range(100000)"):  # the block's own error
        1 / 0  # noqa: B018
    with pytest.raises(CosyError, match="read inside its with block"):
        batches.read_all()
    assert db.sql("SELECT 42 AS x").to_pylist() == [{"x": 42}]


def test_sql_binds_parameters_beside_the_experiment_of_ref(db):
    """exchange(): messages with tags 7 and 9; rank 1's late-sender wait is 400 ns. A list
    binds ?, a dict $name, both also in a query whose ref() binds the experiment."""
    assert db.sql("SELECT tag FROM messages WHERE tag > ?", [8]).to_pylist() == [{"tag": 9}]
    assert db.sql("SELECT tag FROM messages WHERE tag < $below", {"below": 8}).to_pylist() == [{"tag": 7}]
    matches = "SELECT location_id FROM {{ ref('mpi_latesender_matches') }} WHERE idle_s > "
    assert db.sql(matches + "?", [300 * NS]).to_pylist() == [{"location_id": 1}]
    assert db.sql(matches + "?", [500 * NS]).num_rows == 0
    assert db.sql(matches + "$least", {"least": 300 * NS}).to_pylist() == [{"location_id": 1}]
    assert db.sql(matches + "$least", params={"least": 500 * NS}).num_rows == 0
    with db.query("SELECT tag FROM {{ ref('messages') }} WHERE tag = ?", [9]) as batches:
        assert batches.read_all().to_pylist() == [{"tag": 9}]
    with pytest.raises(CosyError, match="p_experiment_id is the experiment"):
        db.sql(matches + "$p_experiment_id", {"p_experiment_id": 0})
    with pytest.raises(CosyError, match="params: a list .* not str"):
        db.sql("SELECT ?", "1")
    with pytest.raises(CosyError, match="Values were not provided .* least"):
        db.sql(matches + "$least", {"most": 1})


def test_the_database_is_a_context_manager(db):
    """with cosydb.open(...) as db: nothing to close, usable after its block; an error in the
    block goes on as it is."""
    with cosydb.open(db.path) as opened:
        assert opened.path == db.path
        assert opened.experiments().column("name").to_pylist() == ["run"]
    assert opened.table("messages").num_rows == 2
    with pytest.raises(KeyError), cosydb.open(db.path):
        raise KeyError("mine")


def test_table_reads_patterns_and_properties_of_the_catalog(db):
    """db.table('x') for a catalog entry: its rows on the experiment, as {{ ref('x') }} reads them."""
    waits = db.table("mpi_latesender_matches").select(["location_id", "idle_s"])
    assert waits.to_pylist() == [{"location_id": 1, "idle_s": pytest.approx(400 * NS)}]
    late = db.table("mpi_latesender")
    assert sorted((r["location_id"] or 0, r["value"]) for r in late.to_pylist()) == [
        (0, pytest.approx(400 * NS)),  # over all processes (location NULL)
        (1, pytest.approx(400 * NS)),
    ]
    with pytest.raises(CosyError, match="'mpi_latesendr'.*did you mean mpi_latesender"):
        db.table("mpi_latesendr")
    with pytest.raises(CosyError, match="'messags'.*did you mean messages"):
        db.table("messags")
    with pytest.raises(CosyError, match="'mpi' is a category"):
        db.table("mpi")


def test_cube_and_export_as_the_command_line(db, tmp_path):
    """exchange(): waits of 400 ns (late sender), 20 + 10 (barrier), 40 + 30 (allreduce), 30
    (late receiver); the API's cube and export are the commands' (their JSON and their line)."""
    from typer.testing import CliRunner

    from cosydb.cli import app

    cube = db.cube()
    assert cube.experiment == {"experiment_id": 1, "name": "run"}
    totals = {r["metric"]: r["inclusive"] for r in cube.metrics.to_pylist()}
    assert totals["mpi_latesender"] == pytest.approx(400 * NS)
    assert totals["mpi_barrier_wait"] == pytest.approx(30 * NS)
    assert totals["mpi_wait_nxn"] == pytest.approx(70 * NS)
    assert totals["mpi_latereceiver"] == pytest.approx(30 * NS)
    stored = db.sql("SELECT sum(exclusive) AS s FROM severity_cube WHERE metric = 'mpi_latesender'")
    assert stored.column("s")[0].as_py() == pytest.approx(400 * NS)
    printed = CliRunner().invoke(app, ["cube", str(db.path), "--format", "json"])
    assert [  # parallel sums may differ in the last bit from run to run
        (m["metric"], m["parent"], pytest.approx(m["inclusive"], abs=1e-15), pytest.approx(m["exclusive"], abs=1e-15))
        for m in json.loads(printed.output)["metrics"]
    ] == [(m["metric"], m["parent"], m["inclusive"], m["exclusive"]) for m in cube.metrics.to_pylist()]

    written = db.export(tmp_path / "run.cubex")
    assert written["path"] == tmp_path / "run.cubex" and written["path"].stat().st_size > 0
    assert (written["metrics"], written["locations"]) == (cube.metrics.num_rows, 3)
    assert written["callpaths"] == db.table("callpaths").num_rows
    line = CliRunner().invoke(app, ["export", str(db.path), "-o", str(tmp_path / "cli.cubex")]).output
    assert f"{written['metrics']} metrics x {written['callpaths']} call paths x 3 locations" in line

    timeline = db.export(tmp_path / "run.json", format="perfetto", locations=[1])
    events = json.loads((tmp_path / "run.json").read_text())["traceEvents"]
    assert timeline["locations"] == 1 and {e["pid"] for e in events if e["ph"] == "X"} == {1}
    with pytest.raises(CosyError, match="'pdf' is not one of cube, perfetto"):
        db.export(tmp_path / "x.pdf", format="pdf")
    with pytest.raises(CosyError, match="missing/run.cubex: directory does not exist"):
        db.export(tmp_path / "missing" / "run.cubex")
    with pytest.raises(CosyError, match="^/proc/run.json: No such file or directory$"):  # the system's OSError
        db.export("/proc/run.json", format="perfetto")


def test_load_tells_its_phases(tmp_path):
    seen = []
    with cosydb.load(exchange().write(tmp_path / "run"), tmp_path / "run.cosydb", progress=seen.append) as loaded:
        assert loaded.experiments().column("name").to_pylist() == ["run"]
    with pytest.raises(CosyError, match="already holds an experiment named 'run'"):
        cosydb.load(tmp_path / "run", tmp_path / "run.cosydb", name="run")
    assert seen[0] == "reading traces.otf2"
    assert any(text.startswith("read ") and "events/s" in text for text in seen)
    assert "deriving region_instances" in " ".join(seen)
    assert seen[-1] == "committing"


@pytest.mark.parametrize("quiet", [False, True])
def test_a_terminal_sees_the_progress_line_unless_quiet(tmp_path, quiet):
    """stderr on a pseudo-terminal: the phases as one rich status line; --quiet: none."""
    import os
    import pty
    import subprocess

    from conftest import COSYDB

    trace = exchange().write(tmp_path / "run")
    leader, follower = pty.openpty()
    args = [COSYDB, "load", str(trace), "--db", str(tmp_path / "run.cosydb"), *(["--quiet"] if quiet else [])]
    done = subprocess.run(args, stdout=subprocess.PIPE, stderr=follower, text=True, timeout=300)
    os.close(follower)
    seen = b""
    while True:
        try:
            chunk = os.read(leader, 65536)
        except OSError:  # the terminal's other end is closed: all read
            break
        if not chunk:
            break
        seen += chunk
    os.close(leader)
    assert done.returncode == 0 and "loaded" in done.stdout
    assert ("deriving" in seen.decode(errors="replace")) is not quiet
