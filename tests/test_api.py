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
    with pytest.raises(CosyError, match="no table or view 'nope'"):
        db.table("nope")
    with pytest.raises(CosyError, match="reads only"):
        db.sql("CREATE TABLE x AS SELECT 1")


def test_load_tells_its_phases(tmp_path):
    seen = []
    cosydb.load(exchange().write(tmp_path / "run"), tmp_path / "run.cosydb", progress=seen.append)
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
