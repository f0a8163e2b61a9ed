"""``cosydb report --format json``: the report as one JSON object, names demangled (as
recorded beside: ``mangled_place``, ...), a row per line."""

from __future__ import annotations

import json

from . import names

SUFFIX = "json"


def text(result: dict, view) -> str:
    shown = names.demangled(result)
    if result["bottleneck"]:  # "property at place", the place demangled
        shown["bottleneck"] = f"{result['problems'][0]['property']} at {shown['problems'][0]['place']}"
    return _lines(shown) + "\n"


def _lines(report: dict) -> str:
    """``report`` as JSON text, an item per line and a list's items (the rows) one per line: each
    line is written by json's C encoder, which ``indent`` would leave for its Python one (at
    a thousand ranks, half a second for the report's 7,000 rows against a fifth)."""
    items = []
    for key, value in report.items():
        if isinstance(value, list) and value:
            rows = ",\n".join("  " + json.dumps(row, default=str) for row in value)
            items.append(f" {json.dumps(key)}: [\n{rows}\n ]")
        else:
            items.append(f" {json.dumps(key)}: {json.dumps(value, default=str)}")
    return "{\n" + ",\n".join(items) + "\n}"
