"""How ``cosydb sql``, ``diff``, ``cube``, ``properties`` and ``schema`` show their results:
one function per format, registered in ``cosydb.formats`` (``SQL``, ``DIFF``, ``CUBE``,
``PROPERTIES``, ``SCHEMA``). Each command calls its format's function with its result:
``sql`` (batches, limit), ``diff`` (result, top), ``cube`` (result), ``properties``
(catalog), ``schema`` (). Names from traces and users are printed as they are
(``names.printable``)."""

from __future__ import annotations

import csv
import json
import sys
import textwrap

import pyarrow as pa
from rich.table import Table
from rich.text import Text

from . import names
from .terminal import out, path_width, precise_value_text, width


def sql_table(batches: pa.RecordBatchReader, limit: int) -> None:
    """The first ``limit`` rows as a table, and how many there are."""
    from .result_formats import write_table

    write_table(batches, _result_table, limit)


def sql_csv(batches: pa.RecordBatchReader, limit: int) -> None:
    """Every row as CSV (``limit`` is the table's)."""
    from .result_formats import write_csv

    sys.stdout.flush()
    write_csv(batches, sys.stdout.buffer)


def sql_json(batches: pa.RecordBatchReader, limit: int) -> None:
    """Every row as a JSON array of objects (``limit`` is the table's)."""
    from .result_formats import write_json

    write_json(batches, sys.stdout)


def _result_table(header: list[str], rows: list[list[str]], total: int) -> None:
    table = Table(*names.printable(header), box=None, padding=(0, 2))
    for row in rows:
        table.add_row(*names.printable(row))
    out.print(table)
    out.print(f"({total} rows)" if total == len(rows) else f"({total} rows, the first {len(rows)} shown: --limit)")


def diff_json(result: dict, top: int) -> None:
    out.print(json.dumps(result, indent=1, default=str))


def diff_csv(result: dict, top: int) -> None:
    writer = csv.DictWriter(sys.stdout, fieldnames=list(result["rows"][0]) if result["rows"] else ["property"])
    writer.writeheader()
    writer.writerows({k: json.dumps(v) if isinstance(v, list) else v for k, v in r.items()} for r in result["rows"])


def diff_table(result: dict, top: int) -> None:
    """The ``top`` largest changes, each call path fitted to the terminal."""
    result = names.printable(result)
    out.print(
        Text.assemble(
            (f"{result['a']} -> {result['b']}", "bold"),
            f"   (properties whose condition holds in either; change = {result['b']} - {result['a']})",
        )
    )
    for line in textwrap.wrap(
        "Each change once: a call path's own value (a row that sums its callees' is theirs, listed "
        "below it); (= p) the properties with the same values there.",
        width(),
    ):
        out.print(line)
    shown = [
        [
            r["property"] + (f" (= {', '.join(r['same'])})" if r["same"] else ""),
            names.path(r["mangled_place"]),  # demangled as report shows it
            precise_value_text(r["value_a"], r["unit"]),
            precise_value_text(r["value_b"], r["unit"]),
            precise_value_text(r["change"], r["unit"]),
            "" if r["relative_change"] is None else f"{r['relative_change']:+.1%}",
            f" [{r['condition_id']}]" if r["condition_id"] else "",
        ]
        for r in result["rows"][:top]
    ]
    header = ["property", "call path", result["a"], result["b"], "change", "relative"]
    # the call path shortened in its middle, never its leaf, to what the other columns leave
    left = path_width([header, *(row[:-1] for row in shown)], 1, 30)
    table = Table(*header, box=None, padding=(0, 2))
    for *row, condition in shown:
        table.add_row(row[0], names.fit(row[1], left - len(condition)) + condition, *row[2:])
    out.print(table)
    if len(result["rows"]) > top:
        out.print(f"({len(result['rows']) - top} more rows: --top, or --format csv)")


def cube_json(result: dict) -> None:
    """The cube's metrics, call paths demangled (as recorded in mangled_top_callpath)."""
    out.print(json.dumps(names.demangled(result), indent=1))


def cube_table(result: dict) -> None:
    """The metric tree with inclusive and exclusive totals and where each is largest."""
    result = names.printable(result)
    exp = result["experiment"]
    out.print(
        Text.assemble(
            (f"experiment {exp['experiment_id']}: {exp['name']}", "bold"),
            "   severity cube stored in table severity_cube",
        )
    )
    table = Table("metric", "inclusive", "exclusive", "largest at call path", box=None, padding=(0, 2))
    rows = []
    for m in result["metrics"]:
        value = "{:.6g}" + (" s" if m["unit"] == "s" else "")
        # a time below a picosecond (no clock's tick) is a rounding residue of the sums: 0
        shown = [0.0 if m["unit"] == "s" and abs(v) < 1e-12 else v for v in (m["inclusive"], m["exclusive"])]
        rows.append(["  " * m["depth"] + m["metric"], *(value.format(v) for v in shown)])
    # the call path demangled as the report shows it, elided in its middle to the terminal's width
    left = path_width([["metric", "inclusive", "exclusive", ""], *(row + [""] for row in rows)], 3, 40)
    for row, m in zip(rows, result["metrics"]):
        table.add_row(*row, names.fit(names.path(m["top_callpath"]), left) if m["top_callpath"] else "")
    out.print(table)


def properties_table(catalog: dict) -> None:
    """The catalog as a tree: name, family (its folder: which measurement it is, as
    scalasca's mpi_latesender, cre's late_sender, asl_mpi's idle_late_sender), kind, unit,
    one-line description."""
    from .catalog import tree_order

    table = Table("property", "family", "kind", "unit", "description", box=None, padding=(0, 2))
    for prop, depth in tree_order(catalog):
        table.add_row(*names.printable(["  " * depth + prop.name, prop.family, prop.kind, prop.unit, prop.info]))
    out.print(table)


def properties_markdown(catalog: dict) -> None:
    """The catalog document (docs/properties.md)."""
    from .docs import properties_markdown as document

    sys.stdout.write(document(catalog))


def schema_markdown() -> None:
    """The schema document (docs/schema.md)."""
    from .docs import schema_markdown as document

    sys.stdout.write(document())
