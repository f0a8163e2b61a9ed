"""Signals during a load: SIGINT (Ctrl-C), SIGTERM (kill, timeout, batch systems), SIGHUP.

While :func:`handled` is active (``cosydb load`` runs in it) these signals raise
:class:`Interrupted` in the main thread, so that the load removes what it wrote and
stops its reader processes before the command exits with ``128 + signal`` and one
line. Code that must not be interrupted half-way, or that runs Python callbacks from
C (OTF2's readers: an exception raised there is lost), runs in :func:`deferred`: a
signal is only noted and raised when the block ends (or at :func:`check`).
A signal ignored when the load starts (``nohup``, a background job's SIGINT) stays
ignored.
"""

from __future__ import annotations

import contextlib
import signal
import threading

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


def _handler(signum, frame):
    if _state.received is None:
        _state.received = signum
    if _state.deferred or _state.raised:
        return
    _state.raised = True
    raise Interrupted(signum)


@contextlib.contextmanager
def handled():
    """Turn SIGINT, SIGTERM and SIGHUP into :class:`Interrupted` for the duration (only in
    the main thread, where Python runs signal handlers; elsewhere, or nested, a no-op)."""
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
