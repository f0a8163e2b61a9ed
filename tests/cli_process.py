"""``cosydb`` command lines in real processes, forked from one helper interpreter.

A fresh ``cosydb`` process spends most of a small command starting Python and importing
cosydb, DuckDB, pyarrow and otf2 (about half a second). The helper interpreter imports
them once; each command line then runs in a process forked from it, as the installed
console script runs it (``sys.exit(app())`` with ``sys.argv`` set), with its own file
descriptors 0 (``/dev/null``), 1 and 2 (files), working directory and environment, and
ends as an interpreter does: ``SystemExit`` gives the exit code, any other exception
Python's traceback on stderr and exit code 1, then the ``atexit`` functions run and the
streams are flushed. So exit codes, everything Python or C code prints on stdout or
stderr, and tracebacks are seen as from ``cosydb`` itself. The helper only imports: it
runs no command and opens no database, so every child starts from a freshly imported
state (and forks no thread of DuckDB's).

Tests about the console script itself or about signals and process lifecycles
(tests/test_lifecycle.py) still start ``cosydb`` with ``subprocess``.
"""

from __future__ import annotations

import atexit
import json
import os
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

#: imported by the helper before it forks: what the commands import on first use
PRELOAD = (
    "cosydb.cli",
    "cosydb.api",
    "cosydb.result_formats",
    "cosydb.sandbox",
    "cosydb.loading",
    "cosydb.loaders",
    "cosydb.loaders.otf2_trace",
    "cosydb.loaders.cube_profile",
    "cosydb.loaders.summary_input",
    "cosydb.evaluator",
    "cosydb.report",
    "cosydb.report_view",
    "cosydb.report_json",
    "cosydb.report_csv",
    "cosydb.export",
    "cosydb.info",
    "cosydb.names",
    "rich._emoji_codes",
    "zoneinfo",
    "pyarrow.compute",
    "pyarrow.csv",
    "pyarrow.dataset",
    "pyarrow.parquet",
    "tarfile",
)


def _child(job: dict) -> int:
    """In the forked child: run one command line; returns its exit code."""
    null = os.open(os.devnull, os.O_RDONLY)
    os.dup2(null, 0)
    os.close(null)
    for fd, path in ((1, job["out"]), (2, job["err"])):
        target = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o644)
        os.dup2(target, fd)
        os.close(target)
    sys.stdin = open(0, closefd=False)  # noqa: SIM115 - the process's own streams
    sys.stdout = open(1, "w", closefd=False)  # noqa: SIM115
    sys.stderr = open(2, "w", errors="backslashreplace", closefd=False, buffering=1)  # noqa: SIM115
    os.environ.clear()
    os.environ.update(job["env"])
    os.chdir(job["cwd"])
    sys.argv = ["cosydb", *job["args"]]
    code = 0
    try:
        from cosydb.cli import app

        sys.exit(app())  # what the console script does
    except SystemExit as done:
        if done.code is None:
            code = 0
        elif isinstance(done.code, int):
            code = done.code
        else:
            print(done.code, file=sys.stderr)
            code = 1
    except BaseException:  # noqa: BLE001 - an uncaught exception: Python prints its traceback
        sys.excepthook(*sys.exc_info())
        code = 1
    atexit._run_exitfuncs()
    return code


def _warm() -> None:
    """Fill the caches a cosydb process keeps (the parsed catalog, the rendered sql/ objects
    and every compiled template), as a process that already ran a command has them: each
    forked child then skips compiling the same templates again. Opens no database."""
    from cosydb import catalog, database, evaluator, sqlviews

    entries = catalog.load()
    sqlviews.ordered(sqlviews.load_objects(), database.base_tables())
    sqlviews.ordered(sqlviews.load_objects("check"), database.object_names())
    evaluator.plan(entries, database.object_names(), views=database.view_names())


def _serve() -> None:
    """Read JSON jobs ``{"args", "out", "err", "env", "cwd", "timeout"}`` from stdin, run each
    in a forked child, answer ``{"status": code | "hang" | "signal N", "seconds": s}``."""
    import importlib

    for module in PRELOAD:
        importlib.import_module(module)
    _warm()
    for line in sys.stdin:
        job = json.loads(line)
        started = time.perf_counter()
        pid = os.fork()
        if pid == 0:
            code = 70
            try:
                code = _child(job)
            finally:
                try:
                    sys.stdout.flush()
                    sys.stderr.flush()
                finally:
                    os._exit(code)
        deadline = time.monotonic() + job["timeout"]
        while True:
            done, status = os.waitpid(pid, os.WNOHANG)
            if done:
                result = os.WEXITSTATUS(status) if os.WIFEXITED(status) else f"signal {os.WTERMSIG(status)}"
                break
            if time.monotonic() > deadline:
                os.kill(pid, signal.SIGKILL)
                os.waitpid(pid, 0)
                result = "hang"
                break
            time.sleep(0.002)
        print(json.dumps({"status": result, "seconds": time.perf_counter() - started}), flush=True)


class Helper:
    """One helper interpreter; ``run`` is a ``cosydb`` command line in a child forked from it."""

    def __init__(self):
        self.process = subprocess.Popen(
            [sys.executable, __file__, "--serve"], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True
        )

    def run(self, args, out: Path, err: Path, cwd=None, timeout: float = 600):
        """(exit code or 'hang' / 'signal N', seconds); stdout and stderr are in ``out`` and ``err``."""
        job = {
            "args": [str(a) for a in args],
            "out": str(out),
            "err": str(err),
            "env": dict(os.environ),
            "cwd": str(cwd if cwd is not None else os.getcwd()),
            "timeout": timeout,
        }
        self.process.stdin.write(json.dumps(job) + "\n")
        self.process.stdin.flush()
        reply = self.process.stdout.readline()
        if not reply:
            raise RuntimeError("the cosydb helper process died")
        answer = json.loads(reply)
        return answer["status"], answer["seconds"]

    def close(self):
        if self.process.poll() is None:
            self.process.stdin.close()
            self.process.wait(timeout=30)


_shared: Helper | None = None


def shared() -> Helper:
    """This test process's helper, started on first use."""
    global _shared
    if _shared is None or _shared.process.poll() is not None:
        _shared = Helper()
        atexit.register(_shared.close)
    return _shared


def cosydb(*args, cwd=None) -> subprocess.CompletedProcess:
    """``cosydb args`` in a forked process: its exit code, stdout and stderr (as ``subprocess.run``
    with ``capture_output=True, text=True``). A command still running after 10 minutes is
    killed and fails the test."""
    with tempfile.TemporaryDirectory(prefix="cosydb-cli-") as scratch:
        out, err = Path(scratch) / "stdout", Path(scratch) / "stderr"
        status, _ = shared().run(args, out, err, cwd=cwd)
        stdout, stderr = out.read_text(), err.read_text()
    if not isinstance(status, int):
        raise AssertionError(f"cosydb {' '.join(map(str, args))}: {status}\n{stderr}")
    return subprocess.CompletedProcess(["cosydb", *map(str, args)], status, stdout, stderr)


if __name__ == "__main__":
    if sys.argv[1:] == ["--serve"]:
        _serve()
        sys.exit(0)
