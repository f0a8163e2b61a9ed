"""What checking a specification finds: its errors (``AslError``) and the places read as
the report writes them (``Reading``), each at its line and column."""

from __future__ import annotations

import lark

from .parser import AslError
from .readings import Reading
from .values import ERROR, Val


class Problems:
    """The errors and readings of one specification; ``own``: the ids of the nodes of its
    syntax tree (a reading elsewhere, in a shared template or function, is its file's)."""

    def __init__(self, path: str, own: set[int]):
        self.path = path
        self.own = own
        self.errors: list[AslError] = []
        self.readings: list[Reading] = []

    def error(self, node, problem: str) -> Val:
        """Report ``problem`` at ``node``; the value of what has it."""
        line, column = position(node)
        self.errors.append(AslError(self.path, line, column, problem))
        return ERROR

    def reading(self, node, how: str) -> None:
        """Say how ``node`` of this specification is read (not one of a shared template's or
        function's: that file's own check says it)."""
        if id(node) in self.own:
            line, column = position(node)
            self.readings.append(Reading(self.path, line, column, how))


def position(node) -> tuple[int, int]:
    """The line and column of a node (of its first located descendant; 1, 1 if none)."""
    if isinstance(node, lark.Token):
        return node.line or 1, node.column or 1
    meta = getattr(node, "meta", None)
    if meta is not None and not meta.empty:
        return meta.line, meta.column
    for child in getattr(node, "children", []):
        line, column = position(child)
        if (line, column) != (1, 1):
            return line, column
    return 1, 1
