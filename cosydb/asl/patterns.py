"""A PATTERN (report, section 3.3.5) as the subquery of its matches: one row per ROOT event
of its ROOTTYPE that its CONSTRAINT admits, its EXPORT definitions as columns."""

from __future__ import annotations

from typing import TYPE_CHECKING

import lark

from .declarations import definition
from .values import Val, describe

if TYPE_CHECKING:
    from .expressions import Expressions


def compile_pattern(expressions: Expressions, pattern: lark.Tree, scope: dict) -> tuple[str, str] | None:
    """A pattern's matches as a subquery, its parameters bound in ``scope``, and the class of
    its match objects (the EXPORT's name, or <pattern>Match), which it adds to the
    specification's data model; None if its ROOTTYPE has no relation (reported)."""
    name, parts = str(pattern.children[0]), list(pattern.children[2:])
    local = parts.pop(0).children if parts[0].data == "local_defs" else []
    roottype, instantiation, constraint, export = parts
    root_class = str(roottype.children[0])
    found = expressions.objects.relation(root_class, roottype)
    if found is None:
        return None
    relation, _, filters, _ = found
    root = expressions.query.alias("root")
    scope = {**scope, "root": Val("row", sql=root, cls=expressions.model.cls(root_class).name)}
    for node in [*local, *instantiation.children]:  # fractions: written where read
        d = definition(node)
        scope[d.name.lower()] = expressions.expr(d.body, scope)
    named = bool(export.children) and isinstance(export.children[0], lark.Token)
    columns, selected = {}, []
    for node in export.children[1:] if named else export.children:
        d = definition(node)
        value = expressions.expr(d.body, scope)
        if d.type is None:
            expressions.untyped(d, value, "type name = expr;")
        if value.kind != "scalar":
            expressions.error(node, f"an exported attribute is a number or a string, not {describe(value)}")
            continue
        column = expressions.query.alias(f"x_{d.name}")
        columns[d.name] = (d.type or value.type, column)
        selected.append(f"{value.sql} as {column}")
    match_class = str(export.children[0]) if named else f"{name}Match"
    expressions.spec.model = expressions.model.extended(match_class, columns)
    where = [f.replace("{row}", root) for f in filters] + [expressions.boolean(constraint.children[0], scope)]
    rows = f"(select {', '.join(selected) or '1 as one'} from {relation} as {root} where {' and '.join(where)})"
    return rows, match_class
