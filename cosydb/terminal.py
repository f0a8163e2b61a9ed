"""What the command line prints on: its consoles (names printed as they are: markup off, a
name's control characters escaped by ``names.printable``), the terminal's width and the
widths and texts its tables share."""

from __future__ import annotations

import shutil
import sys

from rich.console import Console

out = Console(markup=False, highlight=False, soft_wrap=True, width=None if sys.stdout.isatty() else 200)
err = Console(stderr=True, markup=False, highlight=False)


def width() -> int:
    """The terminal's width; COLUMNS or 120 when the output is not a terminal."""
    return shutil.get_terminal_size((120, 24)).columns


def path_width(rows: list[list[str]], column: int, least: int) -> int:
    """The width left on the terminal for ``column`` (a call path, fitted with ``names.fit``)
    of a ``Table(box=None, padding=(0, 2))`` of ``rows`` (the header included): its width less
    the other columns and every column's padding, 2 on each side; at least ``least``."""
    others = sum(max(len(row[i]) for row in rows) for i in range(len(rows[0])) if i != column)
    return max(width() - others - 4 * len(rows[0]), least)


def precise_value_text(value: float | None, unit: str) -> str:
    """A property value with its unit to 6 significant digits ('1.5 s', '300 bytes'; diff's
    columns); '' for none. The report's table scales times instead (``report_view.value_text``)."""
    return "" if value is None else f"{value:.6g}" + {"s": " s"}.get(unit, f" {unit}")
