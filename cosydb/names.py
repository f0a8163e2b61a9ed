"""Region names and call paths as a reader wants them: C++ names demangled, paths fitted to a width,
control characters shown as escapes on a terminal.

Demangling uses ``cxxfilt``, a binding to the C++ runtime's own ``abi::__cxa_demangle`` (the
demangler of ``c++filt``); a name it cannot demangle is shown as it is.
"""

from __future__ import annotations

import functools
from typing import Any

import cxxfilt

ELLIPSIS = "…"

#: C0 controls, DEL, C1 controls and the line / paragraph separators -> their visible escape
_ESCAPES = {
    code: {"\t": "\\t", "\n": "\\n", "\r": "\\r"}.get(chr(code), f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}")
    for code in (*range(0x20), *range(0x7F, 0xA0), 0x2028, 0x2029)
}


def printable(value: Any, lines: bool = False) -> Any:
    """``value`` for a terminal: in a string (or in every string of a dict, list or tuple) each
    control character (C0, DEL, C1) and U+2028/U+2029 as its visible escape (``\\x1b``,
    ``\\n``, ``\\t``, ``\\u2028``), as ``ls`` and ``git`` show them; other text as it is.
    ``lines``: newlines kept (multi-line text). Not for JSON or CSV, which carry names exactly."""
    if isinstance(value, str):
        return "\n".join(part.translate(_ESCAPES) for part in value.split("\n")) if lines else value.translate(_ESCAPES)
    if isinstance(value, dict):
        return {key: printable(item, lines) for key, item in value.items()}
    if isinstance(value, (list, tuple)):
        return [printable(item, lines) for item in value]
    return value


#: GCC's static initialiser and finaliser of a translation unit: the prefix, then the mangled
#: name of the unit's first function (``_GLOBAL__sub_I__Z8CommRecvR6Domainiii``)
_STATIC_PREFIXES = ("_GLOBAL__sub_I_", "_GLOBAL__sub_D_")


@functools.cache
def demangle(name: str) -> str:
    """The demangled form of an Itanium C++ name (``_Z...``, also after GCC's static initialiser
    prefix, as ``c++filt`` shows it: ``_GLOBAL__sub_I_CommRecv(Domain&, int, int, int)``); any
    other name unchanged."""
    for prefix in _STATIC_PREFIXES:
        if name.startswith(prefix + "_Z"):
            return prefix + demangle(name[len(prefix) :])
    if not name.startswith("_Z"):
        return name
    try:
        return cxxfilt.demangle(name, external_only=False) or name
    except cxxfilt.Error:
        return name


def _without_groups(text: str, opening: str, closing: str, last_only: bool = False) -> str:
    """``text`` without its balanced ``opening...closing`` groups (or only the last one at the end)."""
    if last_only:
        if not text.endswith(closing):
            return text
        depth = 0
        for i in range(len(text) - 1, -1, -1):
            depth += {closing: 1, opening: -1}.get(text[i], 0)
            if depth == 0:
                return text[:i]
        return text
    out, depth = [], 0
    for ch in text:
        if ch == opening:
            depth += 1
        elif ch == closing and depth:
            depth -= 1
        elif not depth:
            out.append(ch)
    return "".join(out)


@functools.cache
def short(name: str) -> str:
    """A C++ function's qualified name without return type, template arguments and parameters
    (``void miniFE::cg_solve<...>(...)`` -> ``miniFE::cg_solve``); other names unchanged."""
    full = demangle(name)
    if full == name:
        return name
    text = full.removesuffix(" const")
    text = _without_groups(text, "(", ")", last_only=True)
    text = _without_groups(text, "<", ">") if "operator<" not in text else text
    return text.rsplit(" ", 1)[-1] or full


def display(name: str, mode: str = "short") -> str:
    """A region name for display: ``short`` (default), ``full`` (demangled) or ``raw``."""
    return {"short": short, "full": demangle, "raw": str}[mode](name)


#: what the report's views append to a region's name for a place that is all its calls
ALL_CALLS = " (all calls)"


def path(callpath: str, mode: str = "short") -> str:
    """A call path ``a/b/c`` with each region name shown in ``mode`` (see ``display``); a
    region's place, ``name (all calls)``, with the name shown so."""
    if callpath.endswith(ALL_CALLS):
        return display(callpath.removesuffix(ALL_CALLS), mode) + ALL_CALLS
    return "/".join(display(part, mode) for part in callpath.split("/"))


#: the fields of a report that name regions or call paths (``demangled``)
NAMED_FIELDS = ("place", "callpath", "region", "main_region", "top_callpath")


def demangled(value: Any) -> Any:
    """``value`` (a report's dict, list or row) with each field of ``NAMED_FIELDS`` demangled
    (``path(x, "full")``) and the name as recorded kept beside it as ``mangled_<field>``:
    what ``--format json`` and ``csv`` write, for a person and for a program alike."""
    if isinstance(value, list):
        return [demangled(item) for item in value]
    if not isinstance(value, dict):
        return value
    out = {}
    for key, item in value.items():
        if key in NAMED_FIELDS and (item is None or isinstance(item, str)):
            out[key] = None if item is None else path(item, "full")
            out[f"mangled_{key}"] = item
        else:
            out[key] = demangled(item)
    return out


def fit(callpath: str, width: int) -> str:
    """The call path elided in the middle to at most ``width`` characters, keeping its root
    and as many trailing segments as fit: ``main/…/exchange_externals/MPI_Wait``. The leaf
    is never shortened: when even ``root/…/leaf`` is too long, ``…/leaf``, and a leaf longer
    than ``width`` is shown whole."""
    if len(callpath) <= width:
        return callpath
    parts = callpath.split("/")
    if len(parts) < 2:
        return callpath
    head, tail = parts[0], []
    for part in reversed(parts[1:]):
        candidate = "/".join([head, ELLIPSIS, part, *tail])
        if len(candidate) > width and tail:
            break
        tail.insert(0, part)
    text = "/".join([head, ELLIPSIS, *tail])
    return text if len(text) <= width or len(tail) > 1 else f"{ELLIPSIS}/{parts[-1]}"
