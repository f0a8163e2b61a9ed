"""Run jobs in forked worker processes that never outlive the load.

Each job runs in a process of its own and sends its result (or its error) back
through a pipe. A worker dies with its parent: on Linux the kernel kills it when
the parent dies, however it dies (``prctl(PR_SET_PDEATHSIG)``), elsewhere it
watches a pipe whose other end only the parent holds. Whenever the parent stops
waiting (an error of another job, a signal, anything) the workers left are killed
and reaped before the exception goes on, so the caller may remove their output.
Workers ignore SIGINT (the parent decides; Ctrl-C reaches the whole process group)
and die of SIGTERM.
"""

from __future__ import annotations

import ctypes
import multiprocessing
import os
import pickle
import signal
import sys
import threading
from collections.abc import Callable
from multiprocessing.connection import wait

from cosydb import interrupts
from cosydb.errors import CosyError

_PR_SET_PDEATHSIG = 1
_SIGNALS = {signal.SIGINT, signal.SIGTERM, signal.SIGHUP}


def _die_with_parent(parent: int, watch: int) -> None:
    """Make this (forked) process end when ``parent`` does."""
    armed = False
    if sys.platform.startswith("linux"):
        try:
            armed = ctypes.CDLL(None, use_errno=True).prctl(_PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0) == 0
        except (OSError, AttributeError):
            pass
    if not armed:  # read() returns at end of file: when the parent's end is closed, i.e. it died

        def watcher():
            os.read(watch, 1)
            os._exit(1)

        threading.Thread(target=watcher, daemon=True).start()
    if os.getppid() != parent:  # the parent died before the line above took effect
        os._exit(1)


def _portable(error: BaseException) -> BaseException:
    """``error`` if it survives pickling, else a CosyError or RuntimeError carrying its text."""
    try:
        return pickle.loads(pickle.dumps(error))
    except Exception:  # noqa: BLE001 - any unpicklable exception
        if isinstance(error, CosyError):
            return CosyError(error.path, error.problem)
        return RuntimeError(f"{type(error).__name__}: {' '.join(str(error).split())}")


def _worker(function, job, send, parent: int, watch_read: int, watch_write: int) -> None:
    os.close(watch_write)
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGHUP, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    _die_with_parent(parent, watch_read)
    signal.pthread_sigmask(signal.SIG_UNBLOCK, _SIGNALS)  # blocked by the parent around the fork
    try:
        outcome = ("ok", function(job))
    except BaseException as error:  # noqa: BLE001 - everything goes to the parent
        outcome = ("error", _portable(error))
    send.send(outcome)
    send.close()


def _exit_text(code: int | None) -> str:
    if code is not None and code < 0:
        return f"killed by {interrupts.name(-code)}"
    return f"exit code {code}"


def run(function: Callable, jobs: list, died: Callable[[object, str], BaseException]) -> list:
    """``[function(job) for job in jobs]``, each in a forked process of its own.

    The first job that fails raises its exception here; a worker that ends without a
    result (killed, crashed) raises ``died(job, how)``. ``interrupts.check()`` runs
    while waiting, so a signal noted by a deferred interrupt stops the wait.
    """
    context = multiprocessing.get_context("fork")
    watch_read, watch_write = os.pipe()
    workers = []  # (process, receiving end)
    try:
        for job in jobs:
            receive, send = context.Pipe(duplex=False)
            # no signal between fork and the worker's own signal setup (it would run our handlers)
            blocked = signal.pthread_sigmask(signal.SIG_BLOCK, _SIGNALS)
            try:
                process = context.Process(
                    target=_worker, daemon=True, args=(function, job, send, os.getpid(), watch_read, watch_write)
                )
                process.start()
                workers.append((process, receive))
            finally:
                signal.pthread_sigmask(signal.SIG_SETMASK, blocked)
                send.close()  # the worker's end: at its exit the pipe reads as closed
        os.close(watch_read)
        watch_read = -1
        results: list = [None] * len(jobs)
        pending = {receive: k for k, (process, receive) in enumerate(workers)}
        while pending:
            interrupts.check()
            for receive in wait(list(pending), timeout=0.2):
                k = pending.pop(receive)
                try:
                    status, value = receive.recv()
                except EOFError:
                    process = workers[k][0]
                    process.join(5)
                    raise died(jobs[k], _exit_text(process.exitcode)) from None
                if status == "error":
                    raise value
                results[k] = value
        return results
    finally:
        for process, _ in workers:
            if process.is_alive():
                process.kill()
        for process, receive in workers:
            process.join()
            receive.close()
        for fd in (watch_read, watch_write):
            if fd >= 0:
                os.close(fd)
