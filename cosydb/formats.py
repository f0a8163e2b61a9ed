"""The output formats of every command: a registry per command, format name -> the module
(``report``, ``export``) or the function (``module:function``, the other commands) that
writes it, imported when chosen, so that a new format is one module or function and one
line here (docs/contributing.md).

A report format's module has ``SUFFIX`` (its files', for the example of ``-o``) and either
``text(result, view) -> str``: the report ``result`` (``cosydb.report.run``) as text, printed
or written to ``-o``; or, for a format that is a file of its own (HTML),
``write(db, result, output, view) -> str``: writes ``output``, returns the line said.
A format that shows the severity cube sets ``NEEDS_CUBE = True``: the report then holds it
(``report.run(..., cube=True)``). A format whose text does not always show the rows listed
has ``needs_rows(view) -> bool``: where it is false, the report does not read them
(``report.run(..., rows=False)``).
An export format's module has ``export(db, output, experiment, start, end, locations,
properties_dirs) -> dict`` (the counts written; ``start``, ``end``, ``locations``: the window,
where the format has one; ``properties_dirs``: the plug-ins of the catalog it evaluates)
and ``summary(written) -> str`` (the line said).
The other commands' functions (``cosydb.command_views``) show a result: ``sql`` (batches,
limit), ``diff`` (result, top), ``cube`` (result), ``properties`` (catalog), ``schema`` ()."""

from __future__ import annotations

import importlib
from collections.abc import Callable
from dataclasses import dataclass
from types import ModuleType

from .errors import CosyError

#: ``cosydb report --format``: the default first.
REPORT = {
    "table": "cosydb.report_view",
    "json": "cosydb.report_json",
    "csv": "cosydb.report_csv",
    "html": "cosydb.report_html",
}

#: ``cosydb export --format``: the default first.
EXPORT = {
    "cube": "cosydb.export",
    "perfetto": "cosydb.perfetto",
}

_VIEWS = "cosydb.command_views"
#: ``cosydb sql --format``, ``diff``, ``cube``, ``properties`` and ``schema``: the default first.
SQL = {"table": f"{_VIEWS}:sql_table", "csv": f"{_VIEWS}:sql_csv", "json": f"{_VIEWS}:sql_json"}
DIFF = {"table": f"{_VIEWS}:diff_table", "json": f"{_VIEWS}:diff_json", "csv": f"{_VIEWS}:diff_csv"}
CUBE = {"table": f"{_VIEWS}:cube_table", "json": f"{_VIEWS}:cube_json"}
PROPERTIES = {"table": f"{_VIEWS}:properties_table", "markdown": f"{_VIEWS}:properties_markdown"}
SCHEMA = {"markdown": f"{_VIEWS}:schema_markdown"}


@dataclass(frozen=True)
class ReportView:
    """How ``cosydb report`` was asked to show a report (the text table's options)."""

    width: int = 10**6  # the terminal's columns
    top: int = 10
    tree: bool = False
    per_location: bool = False
    show_all: bool = False
    wide: bool = False
    demangle: bool = True
    properties: tuple[str, ...] = ()  # --property: only these evaluated


def chosen(registry: dict[str, str], name: str, where="--format") -> ModuleType | Callable:
    """The module (or function) of format ``name`` of ``registry``; an unknown name is a
    one-line error naming ``where``."""
    if name not in registry:
        raise CosyError(where, f"'{name}' is not one of {', '.join(registry)}")
    module, _, function = registry[name].partition(":")
    imported = importlib.import_module(module)
    return getattr(imported, function) if function else imported


def writes_a_file(module: ModuleType) -> bool:
    """Whether a report format is a file of its own (needs ``-o``), not text."""
    return hasattr(module, "write")
