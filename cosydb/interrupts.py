"""Signals during a command: SIGINT (Ctrl-C), SIGTERM (kill, timeout, batch systems), SIGHUP.

While :func:`handled` is active (every command's work runs in it) these signals raise
:class:`Interrupted` in the main thread, so that a load removes what it wrote and stops
its reader processes, and a report or export its temporary files, before the command
exits with ``128 + signal`` and one line. A DuckDB query notices the signal at once
(its Python client checks for signals while it runs) and fails: :func:`handled` turns
that failure into the :class:`Interrupted` it stands for. Code that must not be
interrupted half-way (a commit, replacing stored results), or that runs Python callbacks
from C (OTF2's readers: an exception raised there is lost), runs in :func:`deferred`: a
signal is only noted and raised when the block ends (or at :func:`check`). A signal
ignored when the command starts (``nohup``, a background job's SIGINT) stays ignored.
"""

from __future__ import annotations

import contextlib
import signal
import threading
import weakref

_NAMES = ("SIGINT", "SIGTERM", "SIGHUP")


class Interrupted(KeyboardInterrupt):
    """A signal stopped the work; ``exit_code`` is ``128 + signal number``."""

    def __init__(self, signum: int, message: str | None = None):
        self.signum = signum
        self.exit_code = 128 + signum
        super().__init__(message or f"interrupted ({name(signum)})")


def name(signum: int) -> str:
    try:
        return signal.Signals(signum).name
    except ValueError:
        return f"signal {signum}"


class _State:
    def __init__(self):
        self.received: int | None = None  # the first signal
        self.raised = False  # Interrupted was raised once: later signals are only noted
        self.deferred = 0


_state = _State()
_installed = False
_connections: weakref.WeakSet = weakref.WeakSet()


def interruptible(con):
    """``con``, a DuckDB connection, registered to be interrupted by a signal (its query stops
    even where DuckDB's check for Python's signals misses it); returns ``con``."""
    _connections.add(con)
    return con


def _handler(signum, frame):
    if _state.received is None:
        _state.received = signum
    if _state.deferred or _state.raised:
        return
    _state.raised = True
    for con in list(_connections):
        with contextlib.suppress(Exception):  # closed already
            con.interrupt()
    raise Interrupted(signum)


_between: list[int] = []  # the signal between_handled raised for, if any


def _raise(signum, frame):
    _between.append(signum)
    raise Interrupted(signum)


def raised_between() -> int | None:
    """The signal that :func:`between_handled` turned into :class:`Interrupted`, if any."""
    return _between[0] if _between else None


def between_handled() -> None:
    """Outside :func:`handled` (a command printing its result), SIGINT, SIGTERM and SIGHUP
    raise :class:`Interrupted` too, noted for :func:`raised_between`: the command line then
    ends with one line and ``128 + signal``. A signal ignored, or with a handler other than
    Python's default, is left so."""
    if threading.current_thread() is not threading.main_thread():
        return
    for signame in _NAMES:
        signum = getattr(signal, signame, None)
        if signum is not None and signal.getsignal(signum) in (signal.SIG_DFL, signal.default_int_handler):
            signal.signal(signum, _raise)


@contextlib.contextmanager
def handled():
    """Turn SIGINT, SIGTERM and SIGHUP into :class:`Interrupted` for the duration (only in
    the main thread, where Python runs signal handlers; elsewhere, or nested, a no-op). An
    exception raised after a signal came (DuckDB's "Query interrupted") becomes the
    :class:`Interrupted` of that signal."""
    global _state, _installed
    if _installed or threading.current_thread() is not threading.main_thread():
        yield
        return
    previous = {}
    for signame in _NAMES:
        signum = getattr(signal, signame, None)
        if signum is None:
            continue
        current = signal.getsignal(signum)
        if current == signal.SIG_IGN:
            continue
        previous[signum] = signal.SIG_DFL if current is None else current
    _state, _installed = _State(), True
    try:
        for signum in previous:
            signal.signal(signum, _handler)
        yield
    except Exception as error:
        if _state.received is None:
            raise
        raise Interrupted(_state.received) from error
    finally:
        for signum, handler in previous.items():
            signal.signal(signum, handler)
        _state, _installed = _State(), False


@contextlib.contextmanager
def deferred(check_after: bool = True):
    """Only note signals in this block; raise :class:`Interrupted` for one noted when the
    block ends normally (unless ``check_after`` is false)."""
    _state.deferred += 1
    try:
        yield
    finally:
        _state.deferred -= 1
    if check_after:
        check()


def check() -> None:
    """Raise :class:`Interrupted` if a signal was noted and not raised yet (a safe point)."""
    if _state.received is not None and not _state.raised:
        _state.raised = True
        raise Interrupted(_state.received)


def received() -> int | None:
    """The first signal received while :func:`handled` is active, if any."""
    return _state.received
