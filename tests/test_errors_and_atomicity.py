"""Bad input: one line naming the file, exit code 2, and no half-written database."""

import shlex
import shutil

import duckdb
from conftest import assert_clean_failure, cosydb, real_trace, small_trace

from cosydb import SCHEMA_VERSION


def test_missing_file(tmp_path):
    result = cosydb("load", tmp_path / "nope" / "traces.otf2", "--db", tmp_path / "x.cosydb")
    assert_clean_failure(result, "nope/traces.otf2: no such file or directory")
    assert not (tmp_path / "x.cosydb").exists()


def test_directory_without_anchor(tmp_path):
    (tmp_path / "empty").mkdir()
    result = cosydb("load", tmp_path / "empty", "--db", tmp_path / "x.cosydb")
    assert_clean_failure(result, "empty: directory holds no traces.otf2 anchor file")


def test_garbage_bytes(tmp_path):
    run = small_trace(tmp_path)
    (run / "traces.otf2").write_bytes(b"\x00garbage" * 40)
    result = cosydb("load", run, "--db", tmp_path / "x.cosydb")
    assert_clean_failure(result, "traces.otf2: not a readable OTF2 archive")
    assert not (tmp_path / "x.cosydb").exists()


def test_missing_definition_file(tmp_path):
    run = small_trace(tmp_path)
    (run / "traces.def").unlink()
    result = cosydb("load", run, "--db", tmp_path / "x.cosydb")
    assert_clean_failure(result, "traces.def: global definition file is missing")


def test_truncated_event_file_leaves_existing_database_untouched(tmp_path):
    good = small_trace(tmp_path)
    db = tmp_path / "x.cosydb"
    assert cosydb("load", good, "--db", db).returncode == 0
    before = sorted(p.relative_to(db) for p in db.rglob("*"))
    catalog = (db / "cosydb.duckdb").read_bytes()
    bad = tmp_path / "bad"
    shutil.copytree(real_trace("scorep-late_sender"), bad)
    evt = bad / "traces" / "1.evt"
    evt.chmod(0o644)
    evt.write_bytes(evt.read_bytes()[: evt.stat().st_size // 2])
    result = cosydb("load", bad, "--db", db)
    assert_clean_failure(result, "1.evt")
    assert sorted(p.relative_to(db) for p in db.rglob("*")) == before
    assert (db / "cosydb.duckdb").read_bytes() == catalog


def test_not_a_database(tmp_path):
    result = cosydb("info", tmp_path)
    assert_clean_failure(result, "not a cosydb database")
    result = cosydb("sql", tmp_path / "missing.cosydb", "SELECT 1")
    assert_clean_failure(result, "no such database")


def test_database_of_another_schema_names_the_commands_that_rebuild_it(tmp_path):
    """A schema bump refuses older databases: the refusal says how to rebuild one from the
    sources its experiments recorded, and those commands do."""
    run, db = small_trace(tmp_path), tmp_path / "old.cosydb"
    assert cosydb("load", run, "--db", db, "--name", "first run").returncode == 0
    with duckdb.connect(str(db / "cosydb.duckdb")) as con:
        con.execute("UPDATE cosydb_catalog SET schema_version = schema_version - 1")
    result = cosydb("info", db)
    assert_clean_failure(result, f"reads version {SCHEMA_VERSION} (CHANGELOG.md says what changed)")
    anchor, new = shlex.quote(str(run / "traces.otf2")), tmp_path / "old.cosydb.new"
    command = f"cosydb load {anchor} --db {new} --name 'first run'"
    assert result.stderr.rstrip().endswith(f"rebuild it from its sources with {command}")
    assert cosydb(*shlex.split(command)[1:]).returncode == 0
    assert "first run" in cosydb("info", new).stdout


def test_bad_sql_is_one_line(tmp_path):
    db = tmp_path / "x.cosydb"
    assert cosydb("load", small_trace(tmp_path), "--db", db).returncode == 0
    assert_clean_failure(cosydb("sql", db, "SELEKT 1"), "Parser Error")
