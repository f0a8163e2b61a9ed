"""``cosydb report --format json``: the report as one JSON object, names demangled (as
recorded beside: ``mangled_place``, ...)."""

from __future__ import annotations

import json

from . import names

SUFFIX = "json"


def text(result: dict, view) -> str:
    shown = names.demangled(result)
    if result["bottleneck"]:  # "property at place", the place demangled
        shown["bottleneck"] = f"{result['problems'][0]['property']} at {shown['problems'][0]['place']}"
    return json.dumps(shown, indent=1, default=str) + "\n"
