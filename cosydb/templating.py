"""The one renderer of cosydb's SQL: the objects of ``sql/`` and the catalog's entries are
Jinja templates of one SELECT that name what they read with ``ref()``; the references form
the dependency graph that orders them (``dependency_order``), as in dbt.

Templates render in Jinja's sandbox: they reach no Python object beyond the functions they
are given (``ref``, ``config``, ``has``, ...) and the macros of the template directories.
"""

from __future__ import annotations

import contextlib
import functools
import hashlib
from collections.abc import Callable, Iterable
from pathlib import Path

import jinja2
from jinja2.sandbox import SandboxedEnvironment

from .errors import CosyError


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
        return jinja2.FileSystemBytecodeCache()
    except (OSError, RuntimeError):
        return None


@functools.cache
def _environment(paths: tuple[str, ...]) -> jinja2.Environment:
    env = SandboxedEnvironment(
        loader=jinja2.FileSystemLoader(list(paths)) if paths else None,
        undefined=jinja2.StrictUndefined,
        keep_trailing_newline=True,
        bytecode_cache=_bytecode_cache(),
    )
    # the engine a dispatched macro renders for (engine.render passes another one; a template
    # imported without context sees this default)
    env.globals["engine"] = "duckdb"
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
    trailing semicolon. A template error names ``where`` (the file) in one line."""
    try:
        return _compiled(env or _PLAIN, source).render(**functions).strip().rstrip(";")
    except jinja2.TemplateError as error:
        raise CosyError(where, f"template error: {error}") from None


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
