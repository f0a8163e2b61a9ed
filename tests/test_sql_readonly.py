"""``cosydb sql`` without ``--write`` reads only, whatever the statement: every write form,
bare or inside EXPLAIN, EXPLAIN ANALYZE, PREPARE/EXECUTE, a CTE or a subquery, is refused in
one line and leaves the database's files byte for byte as they were; and the process that
runs the query cannot change a file even if a statement got past the check."""

import hashlib
import subprocess
import sys

import pytest
from conftest import cosydb, small_db
from test_cli_safety import one_error_line

from cosydb.api import Database
from cosydb.errors import CosyError


@pytest.fixture(scope="module")
def db(tmp_path_factory):
    return small_db(tmp_path_factory)


def digest(directory) -> dict:
    """Every file under ``directory`` (path relative to it) and the SHA-256 of its bytes."""
    return {
        str(p.relative_to(directory)): hashlib.sha256(p.read_bytes()).hexdigest()
        for p in sorted(directory.rglob("*"))
        if p.is_file()
    }


def write_forms(db, elsewhere) -> list[str]:
    """Statements that write a file, the database or the session's state."""
    table = next((db / "experiments" / "1").glob("region_instances-*.parquet"))
    return [
        f"COPY (SELECT * FROM read_parquet('{table}') LIMIT 0) TO '{table}' (FORMAT parquet)",
        f"COPY (SELECT 1 AS x) TO '{table}' (FORMAT csv, USE_TMP_FILE false)",
        f"COPY (SELECT 1 AS x) TO '{db / 'cosydb.duckdb'}' (FORMAT csv)",
        f"COPY (SELECT 1 AS x) TO '{elsewhere / 'out.csv'}'",
        "CHECKPOINT",
        "CREATE TEMP TABLE t AS SELECT 1 AS x",
        "CREATE TABLE t AS SELECT 1 AS x",
        "INSERT INTO cosydb_catalog SELECT * FROM cosydb_catalog",
        "DROP VIEW events",
        f"ATTACH '{elsewhere / 'other.db'}' AS o",
        f"EXPORT DATABASE '{elsewhere / 'dump'}'",
        "INSTALL httpfs",
        "LOAD httpfs",
        "SET enable_external_access = true",
        "PRAGMA enable_profiling",
        f"CALL enable_logging(storage = 'file', storage_path = '{db / 'log'}')",
        "SELECT * FROM checkpoint()",
        "SELECT * FROM force_checkpoint()",
        f"SELECT * FROM enable_logging(storage = 'file', storage_path = '{db / 'log'}')",
        "SELECT * FROM query('SELECT * FROM checkpoint()')",
        "SELECT * FROM copy_database('memory', 'r')",
    ]


WRAPPERS = {
    "plain": "{}",
    "EXPLAIN": "EXPLAIN {}",
    "EXPLAIN ANALYZE": "EXPLAIN ANALYZE {}",
    "EXPLAIN ANALYZE with comments and options": "EXPLAIN /* a /* nested */ comment */ ANALYZE -- x\n(FORMAT json) {}",
    "PREPARE": "PREPARE p AS {}",
    "PREPARE and EXECUTE": "PREPARE p AS {}; EXECUTE p",
    "CTE": "WITH c AS ({}) SELECT * FROM c",
    "subquery": "SELECT * FROM ({}) AS s",
    "scalar subquery": "SELECT (SELECT count(*) FROM ({}) AS s) AS n",
}


@pytest.mark.parametrize("wrapper", WRAPPERS)
def test_every_write_form_is_refused_and_the_files_stay_as_they_were(db, tmp_path, wrapper):
    """Through the Python API, which makes the same statement check as ``cosydb sql`` but
    runs without its process's file-system guard: a form the check let through would run
    (or fail in DuckDB, not in the check) and change the files. A form the wrapper makes
    unparsable runs nothing."""
    before = digest(db)
    api = Database(db)
    for form in write_forms(db, tmp_path):
        with pytest.raises(CosyError) as refused:  # DuckDB's own errors too (a parser's), naming the database
            api.sql(WRAPPERS[wrapper].format(form))
        assert "\n" not in str(refused.value), (wrapper, form)
    assert digest(db) == before
    assert list(tmp_path.iterdir()) == []


def test_the_command_line_refuses_every_form_and_wrapper_in_one_line(db, tmp_path):
    """``cosydb sql`` itself: each write form bare, and each wrapper around the first form."""
    before = digest(db)
    forms = write_forms(db, tmp_path)
    for query in [*forms, *(wrapper.format(forms[0]) for wrapper in WRAPPERS.values())]:
        result = cosydb("sql", db, query)
        assert one_error_line(result), (query, result.stdout, result.stderr)
        assert result.stdout == "", query
    assert digest(db) == before
    assert list(tmp_path.iterdir()) == []


def test_reading_forms_still_run(db):
    """What reads is not refused: EXPLAIN [ANALYZE] of a SELECT, CTEs, subqueries, table
    functions that read, the catalog's table macros and {{ ref() }}."""
    before = digest(db)
    for query in (
        "EXPLAIN SELECT count(*) FROM events",
        "EXPLAIN ANALYZE SELECT count(*) FROM events",
        "EXPLAIN (FORMAT json) SELECT 1",
        "WITH c AS (SELECT * FROM regions) SELECT count(*) FROM c",
        "SELECT (SELECT max(x) FROM (SELECT range AS x FROM range(3))) AS m",
        "SELECT count(*) FROM duckdb_settings()",
        "SELECT count(*) FROM {{ ref('late_sender_matches') }}",
        "DESCRIBE events",
        "SUMMARIZE SELECT 1 AS x",
    ):
        result = cosydb("sql", db, query, "--format", "json")
        assert result.returncode == 0, (query, result.stderr)
    assert digest(db) == before


def test_write_is_the_users_choice(db, tmp_path):
    out = tmp_path / "regions.csv"
    result = cosydb("sql", db, f"EXPLAIN ANALYZE COPY (SELECT name FROM regions) TO '{out}'", "--write")
    assert result.returncode == 0, result.stderr
    assert "main" in out.read_text()


PROBE = """
import sys, duckdb
from pathlib import Path
from cosydb import sandbox
target, private = Path(sys.argv[1]), Path(sys.argv[2])
if not sandbox.forbid_writes(private):
    print("unsupported"); sys.exit(0)
(private / "spill").write_text("may")
con = duckdb.connect()
for statement in (f"COPY (SELECT 1 AS x) TO '{target}' (FORMAT csv, USE_TMP_FILE false)",
                  f"COPY (SELECT 1 AS x) TO '{target.parent / 'new.csv'}'"):
    try:
        con.execute(statement)
        print("written", statement)
    except duckdb.Error as error:
        assert "Permission denied" in str(error), error
for mode in ("r+b", "wb", "ab"):
    try:
        open(target, mode)
        print("opened", mode)
    except PermissionError:
        pass
try:
    target.unlink()
    print("removed")
except PermissionError:
    pass
print(con.execute(f"SELECT count(*) FROM read_parquet('{target}')").fetchone()[0])
"""


def test_the_process_cannot_change_a_file_once_it_reads_only(db, tmp_path):
    """The operating system's guard under the statement check: after forbid_writes, DuckDB's
    COPY TO and Python's open for writing both fail, reading still works, and the process's
    private directory stays writable (skipped where the kernel has no Landlock)."""
    table = next((db / "experiments" / "1").glob("events-*.parquet"))
    private = tmp_path / "private"
    private.mkdir()
    before = digest(db)
    probe = subprocess.run([sys.executable, "-c", PROBE, str(table), str(private)], capture_output=True, text=True)
    assert probe.returncode == 0, probe.stderr
    if probe.stdout.strip() == "unsupported":
        pytest.skip("no Landlock in this kernel")
    assert probe.stdout.split() != [] and probe.stdout.split()[-1].isdigit(), probe.stdout
    assert "written" not in probe.stdout and "opened" not in probe.stdout and "removed" not in probe.stdout
    assert (private / "spill").read_text() == "may"
    assert digest(db) == before


TEMPLATE_ERRORS = {
    "SELECT {{ 1/0 }}": "ZeroDivisionError",
    "SELECT {{ 10**5000 }}": "a power of more than",
    "SELECT {{ 10**(10**10) }}": "a power of more than",
    "SELECT {{ ref() }}": "missing 1 required positional argument",
    "SELECT {{ ref('x', 1, 2) }}": "takes 1 positional argument but 3 were given",
    "SELECT {{ lipsum(10**6)|length }}": "lipsum of more than",
    "SELECT {{ range(10**6)|list }}": "Range too big",
    "SELECT '{{ 'x' * 10**9 }}'": "a repeated string or list of more than",
    "SELECT '{% for i in range(100000) %}{{ 'x' * 200 }}{% endfor %}'": "an output of more than",
    "SELECT {{ undefined_name }}": "'undefined_name' is undefined",
    "SELECT {{ ''.__class__.__mro__ }}": "unsafe",
}


@pytest.mark.parametrize("query", TEMPLATE_ERRORS)
def test_a_template_error_is_the_users_and_bounded(db, query):
    result = cosydb("sql", db, query)
    assert one_error_line(result), result.stderr
    assert "cosydb: query: template error: " in result.stderr and TEMPLATE_ERRORS[query] in result.stderr
    assert "internal error" not in result.stderr


def test_a_render_has_a_time_limit_and_leaves_nothing_behind(monkeypatch):
    import time

    from cosydb import templating
    from cosydb.errors import CosyError

    monkeypatch.setattr(templating, "RENDER_SECONDS", 0.5)
    endless = "{% for i in range(100000) %}{% for j in range(100000) %}{% endfor %}{% endfor %}x"
    with pytest.raises(CosyError, match="rendering took more than 0.5 s"):
        templating.render(endless, "query")
    assert templating.render("SELECT {{ 6 * 7 }}", "query") == "SELECT 42"
    time.sleep(0.8)  # a finished render's timer raises nothing later
    assert templating.render("SELECT {{ 2 ** 10 }};", "query") == "SELECT 1024"


def test_a_plugins_template_error_names_its_file(db, tmp_path):
    plugins = tmp_path / "props" / "bad"
    plugins.mkdir(parents=True)
    (plugins / "divides.sql").write_text(
        "{#---\nkind: property\nparent: null\nunit: s\ninfo: i\ndescription: d\ndiagnosis: g\n---#}\n"
        "select {{ 1/0 }} AS severity"
    )
    result = cosydb("report", db, "--properties-dir", plugins.parent, "--property", "divides")
    assert one_error_line(result) and "divides.sql" in result.stderr and "ZeroDivisionError" in result.stderr


def test_the_readme_states_the_bounds_the_code_has():
    """The trust model's numbers are the code's."""
    from pathlib import Path

    from jinja2.sandbox import MAX_RANGE

    from cosydb import api, templating

    model = " ".join(
        (Path(__file__).parents[1] / "docs" / "user-guide.md").read_text().split("**Trust model.**")[1].split()[:600]
    )
    for stated in (
        f"`range` of at most {MAX_RANGE:,} numbers",
        f"`lipsum` of at most {templating.MAX_LIPSUM} paragraphs",
        f"`**` of at most {templating.MAX_INT_BITS:,} bits",
        f"the rendered text of at most {templating.MAX_OUTPUT // 1_000_000} million characters, "
        f"{templating.RENDER_SECONDS:g} seconds",
        f"a record batch ({api.BATCH_ROWS:,} rows)",
        "`table` shows the first `--limit` rows (1000)",
    ):
        assert stated in model, stated
