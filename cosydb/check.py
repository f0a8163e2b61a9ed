"""The one check command: ``cosydb-check [--fix] [--all] [pytest arguments]``.

Runs in the repository root (the working directory) ruff (lint), ruff format (check), then
pytest (which also regenerates the documents of docs/ and fails on drift) with sqlfluff
(lint of sql/, reports/ and properties/, configured in .sqlfluff) beside it at the lowest
CPU priority, so that it takes the cores pytest leaves idle; sqlfluff's output follows
pytest's. Exits non-zero if any step fails; all steps run.
With ``--fix``: ruff --fix, ruff format, sqlfluff fix and the documents regenerated first.
pytest runs the fast tier (pyproject's default marker expression); ``--all`` runs every tier:
the tests that need a JVM (``spark``), a browser (``browser``) or the large trace (``large``) too.
``.ci/run`` calls it.
"""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

ROOT = Path.cwd()  # the repository: run it from there (an installed cosydb lives elsewhere)
SQL = ["sql", "properties", "reports"]


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
    sqlfluff_done = _beside("sqlfluff", [sqlfluff, "lint", "--processes", "2", *SQL])
    results.append(_run("pytest", [_tool("pytest"), "-q", *pytest_args]))
    results.append(sqlfluff_done())
    return 0 if all(results) else 1


if __name__ == "__main__":
    sys.exit(main())
