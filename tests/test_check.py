"""cosydb-check's sqlfluff step lints only the SQL files that have not passed as they are."""

from pathlib import Path

from cosydb import check


def _tree(root: Path) -> None:
    files = {
        ".sqlfluff": "[sqlfluff]\ndialect = duckdb\n",
        ".sqlfluffignore": "# macro bodies\nsql/macro.sql\n",
        "tools/sqlfluff_jinja/cosydb_jinja/__init__.py": "def ref(name): return name\n",
        "tools/sqlfluff_cosydb/sqlfluff_cosydb.py": "# the plug-in\n",
        "properties/templates/asl.sql": "{% macro m() %}1{% endmacro %}\n",
        "properties/asl_mpi/p.sql": "select 1 as a\n",
        "sql/a.sql": "select 2 as b\n",
        "sql/macro.sql": "m(x) as x + 1\n",
        "reports/r.sql": "select 3 as c\n",
    }
    for name, text in files.items():
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        (root / name).write_text(text)


def test_a_files_key_changes_with_its_text_and_every_key_with_what_all_depend_on(tmp_path):
    _tree(tmp_path)
    before = check.lint_keys(tmp_path)
    assert sorted(before) == ["properties/asl_mpi/p.sql", "properties/templates/asl.sql", "reports/r.sql", "sql/a.sql"]
    (tmp_path / "sql/a.sql").write_text("select 2 as b  \n")
    changed = check.lint_keys(tmp_path)
    assert {p for p in before if before[p] != changed[p]} == {"sql/a.sql"}
    for shared in (".sqlfluff", "properties/templates/asl.sql", "tools/sqlfluff_jinja/cosydb_jinja/__init__.py"):
        (tmp_path / shared).write_text((tmp_path / shared).read_text() + "\n")
        after = check.lint_keys(tmp_path)
        assert all(after[p] != changed[p] for p in after), shared
        changed = after


def test_only_files_not_passed_as_they_are_are_linted_and_a_pass_is_recorded(tmp_path, monkeypatch):
    _tree(tmp_path)
    monkeypatch.setattr(check, "ROOT", tmp_path)
    linted = []

    def beside(name, command, passes=True):
        linted.append(command[4:])  # after: sqlfluff lint --processes 2
        return lambda: passes

    monkeypatch.setattr(check, "_beside", beside)
    assert check._lint("sqlfluff")() and linted == [check.SQL]  # none passed yet: the folders
    assert check._lint("sqlfluff")() and len(linted) == 1  # nothing changed: nothing linted
    (tmp_path / "reports/r.sql").write_text("select 4 as c\n")
    monkeypatch.setattr(check, "_beside", lambda name, command: beside(name, command, passes=False))
    assert not check._lint("sqlfluff")() and linted[-1] == ["reports/r.sql"]
    monkeypatch.setattr(check, "_beside", beside)
    assert check._lint("sqlfluff")() and linted[-1] == ["reports/r.sql"]  # a failure records nothing


def test_a_record_that_cannot_be_read_or_written_lints_again(tmp_path, monkeypatch):
    _tree(tmp_path)
    monkeypatch.setattr(check, "ROOT", tmp_path)
    linted = []
    monkeypatch.setattr(check, "_beside", lambda name, command: linted.append(command[4:]) or (lambda: True))
    (tmp_path / check.LINT_PASSED.parent).write_text("a file where the record's folder would be")
    assert check._lint("sqlfluff")() and check._lint("sqlfluff")() and linted == [check.SQL, check.SQL]
