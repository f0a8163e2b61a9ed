"""What the command line does with hostile or unlucky input: names that look like markup,
file-system refusals, empty queries and traces, writing SQL and plug-in templates."""

import json

import otf2
from conftest import cosydb
from cosydb.fixtures.generator import TraceBuilder


def one_error_line(result, code=2):
    lines = result.stderr.strip().splitlines()
    return (
        result.returncode == code
        and len(lines) == 1
        and lines[0].startswith("cosydb: ")
        and "Traceback" not in result.stderr
    )


def markup_db(tmp_path):
    """A trace whose region names look like Rich markup, loaded as an experiment named so too."""
    b = TraceBuilder(2)
    for r in range(2):
        with b[r].open("main", 0, 1000):
            b[r].region("arr[i]", 10, 400)
            b[r].region("[/x] close", 400, 600)
        b[r].collective("MPI_Barrier", 700 + 100 * r, 950)
    db = tmp_path / "m.cosydb"
    loaded = cosydb("load", b.write(tmp_path / "run"), "--db", db, "--name", "[/y]run")
    assert loaded.returncode == 0 and "as experiment 1 '[/y]run'" in loaded.stdout, loaded.stderr
    return db


def test_names_are_printed_as_they_are_never_as_markup(tmp_path):
    db = markup_db(tmp_path)
    info = cosydb("info", db)
    assert info.returncode == 0 and "experiment 1: [/y]run" in info.stdout, info.stderr
    sql = cosydb("sql", db, "SELECT name FROM regions ORDER BY name")
    assert sql.returncode == 0 and "arr[i]" in sql.stdout and "[/x] close" in sql.stdout, sql.stderr
    shown = {}
    for command in (("report", db, "--tree", "--threshold", "0"), ("cube", db), ("properties",)):
        done = shown[command[0]] = cosydb(*command)
        assert done.returncode == 0 and "Traceback" not in done.stderr, (command, done.stderr)
    assert "experiment 1: [/y]run" in shown["report"].stdout
    paths = cosydb("sql", db, "SELECT path FROM callpaths ORDER BY path")
    assert "prog/main/arr[i]" in paths.stdout and "prog/main/[/x] close" in paths.stdout


def test_empty_query_and_several_statements_are_one_line(tmp_path):
    db = markup_db(tmp_path)
    assert one_error_line(cosydb("sql", db, ""))
    assert one_error_line(cosydb("sql", db, "SELECT 1; SELECT 2"))


def test_sql_reads_only_unless_write_is_given(tmp_path):
    db = markup_db(tmp_path)
    events = next((db / "experiments" / "1").glob("events-*.parquet"))
    before = events.read_bytes()
    copy = cosydb("sql", db, f"COPY (SELECT 1 AS x) TO '{events}'")
    assert one_error_line(copy) and "COPY statement writes" in copy.stderr
    assert events.read_bytes() == before
    outside = tmp_path / "secret.csv"
    outside.write_text("a\n1\n")
    assert one_error_line(cosydb("sql", db, f"SELECT * FROM read_csv('{outside}')"))
    assert one_error_line(cosydb("sql", db, f"ATTACH '{tmp_path / 'other.db'}' AS o"))
    assert one_error_line(cosydb("sql", db, "SET enable_external_access = true"))
    # --write: the user's own choice, e.g. exporting a result
    exported = tmp_path / "regions.csv"
    written = cosydb("sql", db, f"COPY (SELECT name FROM regions ORDER BY name) TO '{exported}'", "--write")
    assert written.returncode == 0, written.stderr
    assert "arr[i]" in exported.read_text()
    still = cosydb("sql", db, "SELECT count(*) AS n FROM events", "--format", "json")
    assert still.returncode == 0 and json.loads(still.stdout)[0]["n"] > 0


def test_plugin_templates_are_sandboxed(tmp_path):
    db = markup_db(tmp_path)
    plugins = tmp_path / "props" / "evil"
    plugins.mkdir(parents=True)
    (plugins / "shell_out.sql").write_text(
        "{#---\nkind: property\nparent: null\nunit: s\ninfo: i\ndescription: d\ndiagnosis: g\n---#}\n"
        "select '{{ cycler.__init__.__globals__.os.popen(\"touch " + str(tmp_path / "pwned") + "\").read() }}'"
    )
    result = cosydb("report", db, "--properties-dir", plugins.parent, "--property", "shell_out")
    assert one_error_line(result) and "unsafe" in result.stderr
    assert not (tmp_path / "pwned").exists()


def test_file_system_refusals_are_one_line(tmp_path):
    blocker = tmp_path / "a_file"
    blocker.write_text("not a directory")
    b = TraceBuilder(1)
    with b[0].open("main", 0, 100):
        pass
    trace = b.write(tmp_path / "run")
    assert one_error_line(cosydb("load", trace, "--db", blocker / "x.cosydb"))
    assert not (blocker.parent / "x.cosydb").exists()


def test_report_that_cannot_store_still_reports(tmp_path):
    db = markup_db(tmp_path)
    # the stored results file cannot be replaced: a directory (not empty) stands at its path
    target = db / "experiments" / "1" / "property_results.parquet"
    target.unlink(missing_ok=True)
    (target / "occupied").mkdir(parents=True)
    result = cosydb("report", db)
    assert result.returncode == 0 and "bottleneck: " in result.stdout
    assert "results not stored in the database" in result.stderr and "Traceback" not in result.stderr


def test_a_trace_without_events_loads_and_reports_so(tmp_path):
    with otf2.writer.open(str(tmp_path / "empty"), timer_resolution=1000000000) as trace:
        node = trace.definitions.system_tree_node("node")
        group = trace.definitions.location_group("rank 0", system_tree_parent=node)
        trace.event_writer_from_location(trace.definitions.location("Master thread", group=group))
    db = tmp_path / "empty.cosydb"
    assert cosydb("load", tmp_path / "empty", "--db", db).returncode == 0
    report = cosydb("report", db)
    assert report.returncode == 0 and "no problems: the trace holds no events" in report.stdout, report.stderr


def test_resources_come_from_options_environment_or_defaults(tmp_path, monkeypatch):
    import duckdb
    import pytest

    from cosydb import database, resources
    from cosydb.errors import CosyError

    con = duckdb.connect()
    resources.apply(con, "1GB", 1)
    assert con.execute("SELECT current_setting('threads')").fetchone()[0] == 1
    assert con.execute("SELECT current_setting('memory_limit')").fetchone()[0] in ("953.6 MiB", "1.0 GB", "1000.0 MB")
    monkeypatch.setenv("COSYDB_THREADS", "3")
    monkeypatch.setenv("COSYDB_MEMORY_LIMIT", "2GB")
    assert resources.threads() == 3 and resources.memory_limit() == "2GB"
    assert resources.threads(1) == 1 and resources.memory_limit("512MB") == "512MB"
    monkeypatch.setenv("COSYDB_THREADS", "0")
    with pytest.raises(CosyError, match="COSYDB_THREADS"):
        resources.threads()
    monkeypatch.delenv("COSYDB_THREADS")
    monkeypatch.delenv("COSYDB_MEMORY_LIMIT")
    db = markup_db(tmp_path)
    assert one_error_line(cosydb("report", db, "--memory-limit", "lots"))
    # every connection to a database runs on COSYDB_THREADS threads, not only a command's own
    monkeypatch.setenv("COSYDB_THREADS", "3")
    con = database.connect(db)
    assert con.execute("SELECT current_setting('threads')").fetchone()[0] == 3
    con.close()
    monkeypatch.setenv("COSYDB_THREADS", "some")
    refused = cosydb("sql", db, "SELECT 1")
    assert one_error_line(refused) and "COSYDB_THREADS: 'some' is not a positive number" in refused.stderr
    monkeypatch.delenv("COSYDB_THREADS")
    b = TraceBuilder(1)
    with b[0].open("main", 0, 100):
        pass
    trace = b.write(tmp_path / "small")
    assert one_error_line(cosydb("load", trace, "--db", tmp_path / "small.cosydb", "--threads", "0"))
    assert not (tmp_path / "small.cosydb").exists()
    monkeypatch.setenv("COSYDB_PARTITION_EVENTS", "many")
    refused = cosydb("load", trace, "--db", tmp_path / "small.cosydb")
    assert one_error_line(refused) and "COSYDB_PARTITION_EVENTS: 'many' is not a positive number" in refused.stderr
    assert not (tmp_path / "small.cosydb").exists()
    monkeypatch.delenv("COSYDB_PARTITION_EVENTS")
    loaded = cosydb("load", trace, "--db", tmp_path / "small.cosydb", "--memory-limit", "300MB", "--threads", "1")
    assert loaded.returncode == 0, loaded.stderr
    shown = cosydb("info", "--system")
    assert shown.returncode == 0 and "load_memory_limit     480MB" in shown.stdout
    assert "report_memory_limit   1GB" in shown.stdout


def test_a_full_disk_is_one_line_naming_the_file(tmp_path):
    """A load onto a 256 KiB file system (tmpfs; skipped where mounting is not allowed)."""
    import subprocess

    import pytest
    from conftest import real_trace

    trace = real_trace("hpccg-8-small")
    small = tmp_path / "small"
    small.mkdir()
    if (
        subprocess.run(["mount", "-t", "tmpfs", "-o", "size=256k", "tmpfs", str(small)], capture_output=True).returncode
        != 0
    ):
        pytest.skip("cannot mount a small tmpfs here")
    try:
        full = cosydb("load", trace, "--db", small / "h.cosydb")
        assert one_error_line(full) and "No space left on device" in full.stderr
        assert str(small / "h.cosydb") in full.stderr  # names the file it could not write
        assert list(small.iterdir()) == []  # nothing left behind
    finally:
        subprocess.run(["umount", str(small)], capture_output=True)


def test_a_read_only_file_system_is_one_line_and_report_still_reports(tmp_path):
    """A database on a file system remounted read-only (tmpfs; skipped where mounting is
    not allowed): loads into it are one line, reports analyse and say they stored nothing."""
    import subprocess

    import pytest

    place = tmp_path / "ro"
    place.mkdir()
    if (
        subprocess.run(["mount", "-t", "tmpfs", "-o", "size=32m", "tmpfs", str(place)], capture_output=True).returncode
        != 0
    ):
        pytest.skip("cannot mount a tmpfs here")
    try:
        db = markup_db(place)
        before = sorted(p.name for p in (db / "experiments" / "1").iterdir())
        assert subprocess.run(["mount", "-o", "remount,ro", str(place)], capture_output=True).returncode == 0
        again = cosydb("load", place / "run", "--db", db)  # the trace markup_db wrote
        assert one_error_line(again) and "Read-only file system" in again.stderr
        fresh = cosydb("load", place / "run", "--db", place / "new.cosydb")
        assert one_error_line(fresh) and "Read-only file system" in fresh.stderr
        report = cosydb("report", db)
        assert report.returncode == 0 and "bottleneck: " in report.stdout
        assert "results not stored in the database" in report.stderr and "Read-only file system" in report.stderr
        assert sorted(p.name for p in (db / "experiments" / "1").iterdir()) == before
    finally:
        subprocess.run(["umount", str(place)], capture_output=True)


def test_usage_errors_are_one_line(tmp_path):
    """A query that starts like an option, a missing argument, an unknown command or a value
    out of range: one line naming the command and where its help is, exit code 2 (typer's
    usage box took a dozen lines)."""
    db = markup_db(tmp_path)
    for args, needle in (
        (("sql", db, "-- 1.5 AS f"), "cosydb: sql: No such option: -- 1.5 AS f (see cosydb sql --help)"),
        (("sql",), "cosydb: sql: Missing argument"),
        (("nosuch",), "cosydb: No such command 'nosuch'."),
        (("report", db, "--top", "0"), "cosydb: report: Invalid value for '--top'"),
        (("asl", "check"), "cosydb: asl check: Missing argument"),
    ):
        result = cosydb(*args)
        assert one_error_line(result) and needle in result.stderr, (args, result.stderr)
    assert cosydb("sql", db, "--", "-- a comment\nSELECT 1 AS one").returncode == 0
