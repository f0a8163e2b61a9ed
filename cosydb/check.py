"""The one check command: ``cosydb-check [--fix] [--all] [pytest arguments]``.

Runs in the repository root (the working directory) ruff (lint), ruff format (check), then
pytest (which also regenerates the documents of docs/ and fails on drift) with sqlfluff
(lint of sql/, reports/ and properties/, configured in .sqlfluff) beside it at the lowest
CPU priority, so that it takes the cores pytest leaves idle; sqlfluff's output follows
pytest's. sqlfluff lints only the files that have not passed as they are now (their text,
its configuration and the templates unchanged: ``LINT_PASSED``; a fresh clone lints all).
Exits non-zero if any step fails; all steps run.
With ``--fix``: ruff --fix, ruff format, sqlfluff fix and the documents regenerated first.
pytest runs the fast tier (pyproject's default marker expression); ``--all`` runs every tier:
the tests that need a JVM (``spark``), a browser (``browser``) or the large trace (``large``) too.
``.ci/run`` calls it.
"""

from __future__ import annotations

import contextlib
import os
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

ROOT = Path.cwd()  # the repository: run it from there (an installed cosydb lives elsewhere)
SQL = ["sql", "properties", "reports"]
#: What sqlfluff's verdict on a file depends on besides the file: its configuration, the
#: Jinja library and the plug-in it loads, the templates the properties import.
LINT_INPUTS = [".sqlfluff", ".sqlfluffignore", "tools/sqlfluff_jinja", "tools/sqlfluff_cosydb", "properties/templates"]
#: The files that passed sqlfluff lint, by what they were (``lint_keys``), one per line.
LINT_PASSED = Path(".cosydb_check_cache") / "sqlfluff-passed"


def _run(name: str, command: list[str]) -> bool:
    started = time.perf_counter()
    print(f"== {name}: {' '.join(command)}", flush=True)
    ok = subprocess.run(command, cwd=ROOT).returncode == 0
    print(f"== {name}: {'ok' if ok else 'FAILED'} ({time.perf_counter() - started:.0f} s)", flush=True)
    return ok


def _beside(name: str, command: list[str]):
    """Start ``command`` at the lowest CPU priority with its output kept; returns a function
    that waits for it, prints its output and says whether it passed (as ``_run``)."""
    started = time.perf_counter()
    print(f"== {name} (beside the next step): {' '.join(command)}", flush=True)
    output = tempfile.TemporaryFile()
    process = subprocess.Popen(
        command, cwd=ROOT, stdout=output, stderr=subprocess.STDOUT, preexec_fn=lambda: os.nice(19)
    )
    ended = []  # when it ended, not when the next step did
    waiter = threading.Thread(target=lambda: ended.append((process.wait(), time.perf_counter())), daemon=True)
    waiter.start()

    def finish() -> bool:
        waiter.join()
        code, at = ended[0]
        output.seek(0)
        sys.stdout.flush()
        sys.stdout.buffer.write(output.read())
        output.close()
        print(f"== {name}: {'ok' if code == 0 else 'FAILED'} ({at - started:.0f} s)", flush=True)
        return code == 0

    return finish


def lint_keys(root: Path) -> dict[str, str]:
    """Each SQL file sqlfluff lints (relative path; those of .sqlfluffignore left out) with a
    digest of what decides its lint: its text, ``LINT_INPUTS`` and sqlfluff's version."""
    import fnmatch
    import hashlib
    from importlib.metadata import version

    common = hashlib.sha256(version("sqlfluff").encode())  # not sqlfluff's import: a third of a second
    for name in LINT_INPUTS:
        path = root / name
        for f in sorted([path] if path.is_file() else path.rglob("*")):
            parts = f.relative_to(root).parts  # the plug-in's build products left out
            if f.is_file() and not any(p in ("__pycache__", "build") or p.endswith(".egg-info") for p in parts):
                common.update(f"{f.relative_to(root)}\0".encode() + f.read_bytes() + b"\0")
    ignore = root / ".sqlfluffignore"
    lines = ignore.read_text().splitlines() if ignore.is_file() else []
    ignored = [line.strip() for line in lines if line.strip()[:1] not in ("", "#")]
    keys = {}
    for folder in SQL:
        for f in sorted((root / folder).rglob("*.sql")):
            relative = str(f.relative_to(root))
            if not any(fnmatch.fnmatch(relative, pattern) for pattern in ignored):
                keys[relative] = hashlib.sha256(common.digest() + f.read_bytes()).hexdigest()
    return keys


def _lint(sqlfluff: str):
    """sqlfluff lint (``_beside``) of the SQL files not passed as they are now (``LINT_PASSED``:
    a file, its configuration and templates unchanged since it passed, passes again);
    returns the function that waits for it and records what passed."""
    keys = lint_keys(ROOT)
    store = ROOT / LINT_PASSED
    passed = set()
    with contextlib.suppress(OSError):  # none recorded (or unreadable): lint them all
        passed = set(store.read_text(errors="replace").split())
    todo = [path for path, key in keys.items() if key not in passed]
    if not todo:
        print(f"== sqlfluff: ok (the {len(keys)} SQL files passed as they are, {LINT_PASSED})", flush=True)
        return lambda: True
    paths = SQL if len(todo) == len(keys) else todo  # all: the folders (sqlfluff applies .sqlfluffignore)
    finish = _beside("sqlfluff", [sqlfluff, "lint", "--processes", "2", *paths])

    def recorded() -> bool:
        ok = finish()
        if ok:
            with contextlib.suppress(OSError):  # a record that cannot be written: linted again next time
                store.parent.mkdir(exist_ok=True)
                store.write_text("".join(f"{key}\n" for key in sorted(keys.values())))
        return ok

    return recorded


def regenerate_docs() -> None:
    from . import catalog, docs

    (ROOT / "docs" / "properties.md").write_text(docs.properties_markdown(catalog.load()))
    (ROOT / "docs" / "schema.md").write_text(docs.schema_markdown())


def _tool(name: str) -> str:
    """The console script ``name`` of this Python environment (not ``python -m name``: that
    would put the working directory, the repository, before the installed cosydb)."""
    return str(Path(sys.executable).with_name(name))


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    if not (ROOT / "pyproject.toml").is_file() or not (ROOT / "sql").is_dir():
        print(f"cosydb.check: {ROOT} is not the cosydb repository; run it from there", file=sys.stderr)
        return 2
    fix = "--fix" in argv
    pytest_args = [a for a in argv if a not in ("--fix", "--all")]
    if "--all" in argv:
        pytest_args = ["-m", "", *pytest_args]  # the last -m wins over the default's
    ruff, sqlfluff = _tool("ruff"), _tool("sqlfluff")
    if fix:
        regenerate_docs()
        _run("ruff fix", [ruff, "check", "--fix", "."])
        _run("ruff format", [ruff, "format", "."])
        _run("sqlfluff fix", [sqlfluff, "fix", "--processes", "2", *SQL])
    results = [_run("ruff", [ruff, "check", "."]), _run("ruff format", [ruff, "format", "--check", "."])]
    sqlfluff_done = _lint(sqlfluff)
    results.append(_run("pytest", [_tool("pytest"), "-q", *pytest_args]))
    results.append(sqlfluff_done())
    return 0 if all(results) else 1


if __name__ == "__main__":
    sys.exit(main())
