"""The one renderer of cosydb's SQL: the objects of ``sql/`` and the catalog's entries are
Jinja templates of one SELECT that name what they read with ``ref()``; the references form
the dependency graph that orders them (``dependency_order``), as in dbt.

Templates render in Jinja's sandbox: they reach no Python object beyond the functions they
are given (``ref``, ``config``, ``has``, ...) and the macros of the template directories; and
within bounds: ``range`` of at most 100,000 numbers (Jinja's), ``lipsum`` of at most 100
paragraphs, powers of at most MAX_INT_BITS bits, repeated strings and lists and the output of
at most MAX_OUTPUT characters, RENDER_SECONDS of time. Any failure of a template is the
template's: one line naming it (``render``).
"""

from __future__ import annotations

import contextlib
import ctypes
import functools
import hashlib
import itertools
import math
import operator
import os
import threading
import time
from collections.abc import Callable, Iterable
from pathlib import Path

import jinja2
from jinja2.sandbox import SandboxedEnvironment, SecurityError

from .errors import CosyError

#: the bounds of one render (a user's query, a plug-in's template)
MAX_OUTPUT = 10_000_000  # characters of the rendered text, of a repeated string or list
MAX_INT_BITS = 10_000  # bits of the result of ``**`` (about 3,000 digits)
MAX_LIPSUM = 100  # paragraphs
RENDER_SECONDS = 10.0


class _BoundedSandbox(SandboxedEnvironment):
    """Jinja's sandbox with ``**`` and ``*`` bounded in the size of what they make."""

    intercepted_binops = frozenset({"**", "*"})

    def call_binop(self, context, op: str, left, right):
        if op == "**":
            _check_power(left, right)
            return operator.pow(left, right)
        for count, sequence in ((left, right), (right, left)):
            if (
                isinstance(sequence, (str, list, tuple))
                and isinstance(count, int)
                and len(sequence) * count > MAX_OUTPUT
            ):
                raise SecurityError(f"a repeated string or list of more than {MAX_OUTPUT} items")
        return operator.mul(left, right)


def _check_power(base, exponent) -> None:
    if isinstance(base, int) and isinstance(exponent, int) and exponent > 0 and abs(base) > 1:
        if exponent * math.log2(abs(base)) > MAX_INT_BITS:
            raise SecurityError(f"a power of more than {MAX_INT_BITS} bits")


def _lipsum(n: int = 5, html: bool = True, min: int = 20, max: int = 100) -> str:  # noqa: A002 - Jinja's names
    if not 0 <= n <= MAX_LIPSUM or not 0 <= min <= max <= 1000:
        raise SecurityError(f"lipsum of more than {MAX_LIPSUM} paragraphs of 1,000 words")
    return jinja2.utils.generate_lorem_ipsum(n, html, min, max)


class RenderTimeout(Exception):
    """A render ran longer than RENDER_SECONDS."""


class _Watchdog:
    """One daemon thread that raises RenderTimeout in a thread whose render passed its
    deadline (an asynchronous exception, raised between two Python instructions of the
    template's code). A render only notes its deadline: no thread is started and none is
    woken per render; the watchdog looks at the deadlines every POLL_SECONDS."""

    POLL_SECONDS = 0.25

    def __init__(self):
        self._start()
        os.register_at_fork(after_in_child=self._start)  # a forked child has no watchdog thread yet

    def _start(self) -> None:
        self._guard = threading.Condition()
        self._deadlines: dict[int, tuple[float, int]] = {}  # token: (deadline, thread ident)
        self._tokens = itertools.count()
        self._thread: threading.Thread | None = None

    @contextlib.contextmanager
    def limit(self, seconds: float):
        with self._guard:
            token = next(self._tokens)
            self._deadlines[token] = (time.monotonic() + seconds, threading.get_ident())
            if self._thread is None:
                self._thread = threading.Thread(target=self._watch, name="cosydb-render-watchdog", daemon=True)
                self._thread.start()
        try:
            yield
        finally:
            with self._guard:
                if self._deadlines.pop(token, None) is None:  # expired: an exception set but not raised yet
                    ctypes.pythonapi.PyThreadState_SetAsyncExc(ctypes.c_ulong(threading.get_ident()), None)

    def _watch(self) -> None:
        with self._guard:
            while True:
                now = time.monotonic()
                for token, (deadline, ident) in list(self._deadlines.items()):
                    if deadline <= now:
                        del self._deadlines[token]
                        timeout = ctypes.py_object(RenderTimeout)
                        ctypes.pythonapi.PyThreadState_SetAsyncExc(ctypes.c_ulong(ident), timeout)
                due = min((deadline - now for deadline, _ in self._deadlines.values()), default=self.POLL_SECONDS)
                self._guard.wait(min(due, self.POLL_SECONDS))


_time_limit = _Watchdog().limit


def environment(search_paths: Iterable[str | Path] = ()) -> jinja2.Environment:
    """A sandboxed environment; templates under ``search_paths`` can be imported by their
    relative path (``{% import 'templates/asl.sql' as asl %}``). One per set of paths: it
    keeps the templates it compiled (a changed file is recompiled)."""
    return _environment(tuple(str(p) for p in search_paths))


def _bytecode_cache() -> jinja2.BytecodeCache | None:
    """Jinja's cache of compiled templates in a private directory of the system's temporary
    directory (as Python's ``__pycache__``, keyed by the source): a process then compiles
    only templates no earlier process compiled. None where no such directory can be made."""
    try:
        # its own file names: code compiled by an earlier cosydb had no bounds on ** and *
        return jinja2.FileSystemBytecodeCache(pattern="__cosydb_bounded_%s.cache")
    except (OSError, RuntimeError):
        return None


@functools.cache
def _environment(paths: tuple[str, ...]) -> jinja2.Environment:
    env = _BoundedSandbox(
        loader=jinja2.FileSystemLoader(list(paths)) if paths else None,
        undefined=jinja2.StrictUndefined,
        keep_trailing_newline=True,
        bytecode_cache=_bytecode_cache(),
    )
    # the engine a dispatched macro renders for (evaluator.render passes another one; a template
    # imported without context sees this default)
    env.globals["engine"] = "duckdb"
    env.globals["lipsum"] = _lipsum
    return env


@functools.lru_cache(maxsize=4096)
def _compiled(env: jinja2.Environment, source: str) -> jinja2.Template:
    """Compiling is most of a render's cost: each source once per environment, and once
    across processes through the bytecode cache (imported templates use it through the loader)."""
    cache = env.bytecode_cache
    if cache is None:
        return env.from_string(source)
    # named by the source's digest, in cosydb's sandboxed environment's own namespace
    name = f"cosydb-sandbox/{hashlib.sha256(source.encode()).hexdigest()}"
    bucket = cache.get_bucket(env, name, None, source)
    if bucket.code is None:
        bucket.code = env.compile(source)
        with contextlib.suppress(OSError):  # a full or read-only disk: compiled again next time
            cache.set_bucket(bucket)
    return env.template_class.from_code(env, bucket.code, env.make_globals(None))


_PLAIN = environment()


def render(source: str, where, env: jinja2.Environment | None = None, **functions) -> str:
    """``source`` rendered with ``functions`` as its globals: one SQL statement without its
    trailing semicolon. Any failure of the template (a Jinja error, 1/0, a bound exceeded,
    ``ref()`` called wrongly) is one line naming ``where`` (the file, or the query)."""
    try:
        with _time_limit(RENDER_SECONDS):
            size, parts = 0, []
            for part in _compiled(env or _PLAIN, source).generate(**functions):
                size += len(part)
                if size > MAX_OUTPUT:
                    raise SecurityError(f"an output of more than {MAX_OUTPUT} characters")
                parts.append(part)
        return "".join(parts).strip().rstrip(";")
    except CosyError:
        raise
    except RenderTimeout:
        raise CosyError(where, f"template error: rendering took more than {RENDER_SECONDS:g} s") from None
    except jinja2.TemplateError as error:
        raise CosyError(where, f"template error: {' '.join(str(error).split())}") from None
    except Exception as error:  # noqa: BLE001 - whatever a template's expression raises is the template's
        raise CosyError(where, f"template error: {type(error).__name__}: {' '.join(str(error).split())}") from None


def dependency_order(
    names: Iterable[str], dependencies: Callable[[str], Iterable[str]], where: Callable[[str], object]
) -> list[str]:
    """``names`` and everything they depend on, each after its dependencies (depth first, in
    the order given); a cycle is an error naming ``where(name)`` of an entry on it."""
    done: set[str] = set()
    visiting: set[str] = set()
    order: list[str] = []

    def visit(name: str) -> None:
        if name in done:
            return
        if name in visiting:
            raise CosyError(where(name), "circular ref()")
        visiting.add(name)
        for dependency in dependencies(name):
            visit(dependency)
        visiting.discard(name)
        done.add(name)
        order.append(name)

    for name in names:
        visit(name)
    return order
