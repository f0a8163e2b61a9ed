"""``cosydb report --format csv``: every result row (``property_results``), names demangled,
a nested value (details, a list) as its JSON text."""

from __future__ import annotations

import csv
import io
import json

from . import names

SUFFIX = "csv"


def text(result: dict, view) -> str:
    rows = names.demangled(result["results"])
    written = io.StringIO()
    writer = csv.DictWriter(written, fieldnames=list(rows[0]) if rows else ["property"])
    writer.writeheader()
    for row in rows:
        writer.writerow({k: json.dumps(v) if isinstance(v, (dict, list)) else v for k, v in row.items()})
    return written.getvalue()
