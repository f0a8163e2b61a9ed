"""The user's commands end to end: load, info, sql, several experiments, the DuckDB shell."""

import json
import re
import shutil
import subprocess
import sys

import pytest
from conftest import assert_clean_failure, cosydb
from cosydb.fixtures.generator import TraceBuilder


def trace(tmp_path, name, work):
    b = TraceBuilder(2)
    for r in range(2):
        with b[r].open("main", 0, 1000):
            b[r].region("work", 0, work)
    return b.write(tmp_path / name).parent


def test_two_experiments_in_one_database(tmp_path):
    db = tmp_path / "both.cosydb"
    assert cosydb("load", trace(tmp_path, "a", 100), "--db", db, "--name", "short").returncode == 0
    assert cosydb("load", trace(tmp_path, "b", 700), "--db", db, "--name", "long").returncode == 0
    dup = cosydb("load", trace(tmp_path, "c", 1), "--db", db, "--name", "long")
    assert dup.returncode == 2 and "already holds an experiment named 'long'" in dup.stderr
    result = cosydb(
        "sql",
        db,
        """
        SELECT x.name, sum(i.excl_s) * 1e9 AS work_ns FROM region_instances i
        JOIN experiments x USING (experiment_id) JOIN regions r USING (experiment_id, region_id)
        WHERE r.name = 'work' GROUP BY x.name ORDER BY x.name""",
        "--format",
        "json",
    )
    assert result.returncode == 0, result.stderr
    assert [(r["name"], round(r["work_ns"])) for r in json.loads(result.stdout)] == [("long", 1400), ("short", 200)]
    info = cosydb("info", db)
    assert "experiment 1: short" in info.stdout and "experiment 2: long" in info.stdout
    assert "no warnings" in info.stdout


def test_load_then_report_in_one_command(tmp_path):
    """``load --report`` reports on the last experiment it loaded, in its own process: what
    ``cosydb report`` shows afterwards (it reads the results the load's report stored), after
    the load's lines; rank 1 waits 300 ns in MPI_Recv for a send that starts late."""
    b = TraceBuilder(2)
    with b[0].open("main", 0, 1000):
        b[0].mpi_send(500, 520, dst=1, tag=0, nbytes=8)
    with b[1].open("main", 0, 1000):
        b[1].mpi_recv(200, 600, src=0, tag=0, nbytes=8)
    late = b.write(tmp_path / "late").parent
    db = tmp_path / "runs.cosydb"
    both = cosydb("load", trace(tmp_path, "quiet", 100), late, "--db", db, "--threads", "1", "--report")
    assert both.returncode == 0, both.stderr
    loaded, shown = both.stdout.split("\n", 2)[:2], both.stdout.split("\n", 2)[2]
    assert [line.split(" as ")[1].split(" into")[0] for line in loaded] == [
        "experiment 1 'quiet'",
        "experiment 2 'late'",
    ]
    assert shown.startswith("experiment 2: late ")
    assert re.search(r"mpi_latesender +0\.3 µs ", shown), shown
    again = cosydb("report", db)
    assert again.returncode == 0, again.stderr
    assert again.stdout == shown


def test_default_database_path_and_moved_database(tmp_path):
    run = trace(tmp_path, "myrun", 10)
    work = tmp_path / "cwd"
    work.mkdir()
    assert cosydb("load", run / "traces.otf2", cwd=work).returncode == 0
    assert (work / "myrun.cosydb" / "cosydb.duckdb").exists()
    moved = tmp_path / "elsewhere.cosydb"
    shutil.move(work / "myrun.cosydb", moved)
    result = cosydb("sql", moved, "SELECT count(*) AS n FROM events", "--format", "csv")
    assert (
        result.returncode == 0 and result.stdout.splitlines()[1] == "12"
    )  # 2 ranks x (program, main, work) x (enter, leave)


def test_catalog_written_by_other_sql_definitions_is_rewritten(tmp_path):
    """A database loaded before a view changed (here: an mpi_summary without today's
    columns, and the catalog names other sources) gets the current views when opened."""
    import duckdb

    db = tmp_path / "old.cosydb"
    assert cosydb("load", trace(tmp_path, "a", 10), "--db", db).returncode == 0
    con = duckdb.connect(str(db / "cosydb.duckdb"))
    con.execute("CREATE OR REPLACE VIEW mpi_summary AS SELECT 1 AS experiment_id")
    con.execute("UPDATE cosydb_catalog SET sql_fingerprint = 'written by an older cosydb'")
    con.close()
    result = cosydb("sql", db, "SELECT count(comm_s) AS n FROM mpi_summary", "--format", "csv")
    assert result.returncode == 0, result.stderr
    assert int(result.stdout.splitlines()[1]) > 0


def test_catalog_that_cannot_be_rewritten_is_one_error(tmp_path, monkeypatch):
    """A read-only database whose catalog is out of date (tests run as root, so the file
    system's refusal is simulated)."""
    import duckdb

    from cosydb import database
    from cosydb.errors import CosyError

    db = tmp_path / "ro.cosydb"
    assert cosydb("load", trace(tmp_path, "a", 10), "--db", db).returncode == 0
    con = duckdb.connect(str(db / "cosydb.duckdb"))
    con.execute("UPDATE cosydb_catalog SET sql_fingerprint = 'written by an older cosydb'")
    con.close()

    def refuse(root):
        raise PermissionError(13, "Permission denied")

    monkeypatch.setattr(database, "write_views", refuse)
    with pytest.raises(CosyError, match="views file must be rewritten .* but cannot be: Permission denied"):
        database.connect(db)


def test_stock_duckdb_shell_opens_the_catalog(tmp_path):
    db = tmp_path / "x.cosydb"
    assert cosydb("load", trace(tmp_path, "a", 10), "--db", db).returncode == 0
    shell = shutil.which("duckdb") or str(__import__("pathlib").Path(sys.executable).with_name("duckdb"))
    result = subprocess.run(
        [shell, "-csv", str(db / "cosydb.duckdb"), "SELECT count(*) AS n FROM region_instances"],
        capture_output=True,
        text=True,
    )
    assert result.returncode == 0, result.stderr
    assert result.stdout.split() == ["n", "6"]  # 2 ranks x (program root, main, work)


def test_diff_compares_two_experiments_per_property_and_call_path(tmp_path):
    """Rank 1 waits in MPI_Recv for a send 400 ns late, then (after a fix) 100 ns late."""
    from cosydb.loading import load

    def run_with(delay):
        b = TraceBuilder(2)
        with b[0].open("main", 0, 1000):
            b[0].mpi_send(100 + delay, 120 + delay, dst=1, tag=0, nbytes=8)
        with b[1].open("main", 0, 1000):
            b[1].mpi_recv(100, 130 + delay, src=0, tag=0, nbytes=8)
        return b

    db = tmp_path / "d.cosydb"
    load(run_with(400).write(tmp_path / "before"), db, name="before")
    load(run_with(100).write(tmp_path / "after"), db, name="after")
    result = cosydb("diff", db, "before", "after", "--property", "late_sender", "--format", "json")
    assert result.returncode == 0, result.stderr
    rows = json.loads(result.stdout)["rows"]
    assert [
        (
            r["callpath"],
            round(r["value_a"] * 1e9),
            round(r["value_b"] * 1e9),
            round(r["change"] * 1e9),
            r["relative_change"],
        )
        for r in rows
    ] == [("prog/main/MPI_Recv", 400, 100, -300, pytest.approx(-0.75))]
    table = cosydb("diff", db, "before", "after", "--property", "late_sender")
    assert "-75.0%" in table.stdout and "prog/main/MPI_Recv" in table.stdout
    assert_one_line = cosydb("diff", db, "before", "nope")
    assert assert_one_line.returncode == 2 and "no experiment 'nope'" in assert_one_line.stderr


def test_conventions_version_output_files_suggestions_and_help(tmp_path_factory):
    """--version; -o FILE for every --format of report (written whole, what stdout would show);
    explain suggests close names as report does; help texts keep their brackets."""
    from conftest import small_db

    from cosydb import SCHEMA_VERSION, __version__

    version = cosydb("--version")
    assert (
        version.returncode == 0 and version.stdout.strip() == f"cosydb {__version__} (database schema {SCHEMA_VERSION})"
    )
    db = small_db(tmp_path_factory)
    for fmt in ("table", "json", "csv"):  # one property evaluated: the outputs are the point
        shown = cosydb("report", db, "--format", fmt, "--property", "mpi_latesender")
        written = cosydb("report", db, "--format", fmt, "--property", "mpi_latesender", "-o", db.parent / f"r.{fmt}")
        assert written.returncode == 0 and written.stdout.strip() == f"wrote {db.parent / f'r.{fmt}'}"
        stamp = re.compile(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\+00:00")  # evaluated_at: each report's own
        assert stamp.sub("T", (db.parent / f"r.{fmt}").read_text()) == stamp.sub("T", shown.stdout)
    assert json.loads((db.parent / "r.json").read_text())["experiment"]["name"] == "run"
    unknown = cosydb("explain", "latesender")
    assert unknown.returncode == 2
    assert "did you mean late_sender, mpi_latesender, idle_late_sender?" in unknown.stderr
    assert "pip install 'cosydb[spark]'" in " ".join(cosydb("report", "--help").stdout.split())


def test_diff_shows_call_paths_as_report_does(tmp_path):
    """A C++ caller (``_Z6solverv``, solver()): diff's table names it demangled, as report does."""
    from cosydb.loading import load

    db = tmp_path / "d.cosydb"
    for name, delay in (("before", 400), ("after", 100)):
        b = TraceBuilder(2)
        with b[0].open("main", 0, 1000):
            b[0].mpi_send(100 + delay, 120 + delay, dst=1, tag=0, nbytes=8)
        with b[1].open("main", 0, 1000), b[1].open("_Z6solverv", 50, 900):
            b[1].mpi_recv(100, 130 + delay, src=0, tag=0, nbytes=8)
        load(b.write(tmp_path / name), db, name=name)
    table = cosydb("diff", db, "before", "after", "--property", "mpi_latesender")
    assert table.returncode == 0, table.stderr
    assert "prog/main/solver/MPI_Recv" in table.stdout and "_Z6solverv" not in table.stdout


def _late_sender_run(delay: int) -> TraceBuilder:
    """Rank 1 enters MPI_Recv at 100 in main/solver() (``_Z6solverv``) and waits for rank 0's
    send, which starts ``delay`` ns late (100 + delay); the receive ends at 130 + delay, the
    send takes 20 ns."""
    b = TraceBuilder(2)
    with b[0].open("main", 0, 1000), b[0].open("_Z6solverv", 10, 900):
        b[0].mpi_send(100 + delay, 120 + delay, dst=1, tag=0, nbytes=8)
    with b[1].open("main", 0, 1000), b[1].open("_Z6solverv", 50, 900):
        b[1].mpi_recv(100, 130 + delay, src=0, tag=0, nbytes=8)
    return b


def test_diff_of_two_databases_lists_each_change_once_demangled(tmp_path):
    """cosydb diff DB_A DB_B: the late sender waits 400 ns before, 100 ns after (a fix).
    The MPI time (comm_cost, total_cost) of a call path includes its callees': the diff lists
    it at the MPI calls only (once), not again at solver, main and the program, and names the
    properties with the same values at a place on one row."""
    import csv
    import io

    import cosydb as api
    from cosydb import database
    from cosydb.loading import load

    before, after = tmp_path / "before.cosydb", tmp_path / "after.cosydb"
    load(_late_sender_run(400).write(tmp_path / "before"), before, name="run")
    load(_late_sender_run(100).write(tmp_path / "after"), after, name="run")

    result = cosydb("diff", before, after, "--format", "json")
    assert result.returncode == 0, result.stderr
    compared = json.loads(result.stdout)
    assert (compared["a"], compared["b"]) == ("before.cosydb:run", "after.cosydb:run")  # the names alike
    assert compared["experiments"]["b"] == {"db": str(after), "experiment_id": 1, "name": "run"}
    rows = compared["rows"]
    keys = [(r["property"], r["place"], r["condition_id"]) for r in rows]
    assert len(keys) == len(set(keys))  # each property at each place once

    def at(prop: str) -> dict:
        """place -> (value before, after) of ``prop``, listed or named on a row with its values (same)."""
        return {
            r["place"]: (round(r["value_a"] * 1e9), round(r["value_b"] * 1e9))
            for r in rows
            if r["property"] == prop or prop in r["same"]
        }

    recv, send = "prog/main/solver()/MPI_Recv", "prog/main/solver()/MPI_Send"  # demangled in full, as report's JSON
    late = next(r for r in rows if r["property"] == "mpi_latesender")
    assert (late["place"], round(late["change"] * 1e9), late["relative_change"]) == (recv, -300, pytest.approx(-0.75))
    assert {"idle_late_sender", "late_sender"} <= set(late["same"])  # its twins, named, not listed again
    assert not [r for r in rows if r["property"] in ("idle_late_sender", "late_sender")]
    # MPI time at the calls only: the receive 30 + delay ns, the send 20 ns
    assert at("comm_cost") == at("total_cost") == {recv: (430, 130), send: (20, 20)}
    # the stored inclusive values the diff left out: solver's sums its calls' (430 + 20)
    con = database.connect(before)
    stored = con.execute(
        "SELECT callpath, round(value * 1e9) FROM property_results WHERE property = 'comm_cost' "
        "AND location_id IS NULL ORDER BY callpath"
    ).fetchall()
    con.close()
    assert stored == [
        ("prog", 450),
        ("prog/main", 450),
        ("prog/main/_Z6solverv", 450),
        ("prog/main/_Z6solverv/MPI_Recv", 430),
        ("prog/main/_Z6solverv/MPI_Send", 20),
    ]
    # names demangled, as recorded beside
    for r in rows:
        assert "_Z" not in f"{r['place']} {r['callpath']} {r['region']}", r
    assert late["mangled_place"] == late["mangled_callpath"] == "prog/main/_Z6solverv/MPI_Recv"
    solver = next(r for r in rows if r["mangled_region"] == "_Z6solverv")
    assert (solver["callpath"], solver["region"]) == ("prog/main/solver()", "solver()")

    asked = ["--property", "mpi_latesender", "--property", "idle_late_sender", "--property", "comm_cost"]
    table = cosydb("diff", before, after, "--a", "run", "--b", "1", *asked)
    assert table.returncode == 0, table.stderr
    assert table.stdout.splitlines()[1].startswith("Each change once: a call path's own value")
    assert re.search(
        r"mpi_latesender \(= idle_late_sender\)\s+prog/main/solver/MPI_Recv\s+4e-07 s\s+1e-07 s", table.stdout
    )
    assert "_Z6solverv" not in table.stdout and "prog/main/solver " not in table.stdout
    written = list(csv.DictReader(io.StringIO(cosydb("diff", before, after, "--format", "csv", *asked).stdout)))
    assert {(r["property"], r["callpath"], r["mangled_callpath"], r["same"]) for r in written} == {
        ("mpi_latesender", recv, "prog/main/_Z6solverv/MPI_Recv", '["idle_late_sender"]'),
        ("comm_cost", recv, "prog/main/_Z6solverv/MPI_Recv", "[]"),
        ("comm_cost", send, "prog/main/_Z6solverv/MPI_Send", "[]"),
    }
    # the Python API's diff is the command's; the other database as a path or a Database
    from_api = api.open(before).diff(other=api.open(after), properties=asked[1::2])
    assert (from_api.a, from_api.b) == (compared["a"], compared["b"])
    assert sorted(
        (r["property"], r["callpath"], round(r["value_a"] * 1e9, 6), json.dumps(r["same"]))
        for r in from_api.rows.to_pylist()
    ) == sorted((r["property"], r["callpath"], round(float(r["value_a"]) * 1e9, 6), r["same"]) for r in written)

    assert_clean_failure(cosydb("diff", before, "nope"), "'nope' is no database")
    assert_clean_failure(cosydb("diff", before, after, "--b", "nope"), "no experiment 'nope' (have: run)")
    assert_clean_failure(cosydb("diff", before, "run", "run", "--a", "run"), "--a and --b name the experiments of two")
