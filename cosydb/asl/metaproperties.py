"""A property read by another: its condition, confidence or severity at a context as a
value (``severity(P(r, e))``), and the rows of a metaproperty (those of the properties it
is built on)."""

from __future__ import annotations

from typing import TYPE_CHECKING

import lark

from .declarations import PropertyDef
from .entries import instances
from .spark_forms import joined_part
from .values import ERROR, Val

if TYPE_CHECKING:
    from .expressions import Expressions


def part(expressions: Expressions, name: str, applied: Val, node) -> Val:
    """``name`` (condition, confidence or severity) of the row of the property ``applied``
    (a Val of kind property) at the context its arguments name."""
    objects, model = expressions.objects, expressions.model
    if not applied.sql:  # a template's property parameter, unbound
        return Val("scalar", sql="null", type="boolean" if name == "condition" else "float")
    prop = expressions.spec.properties.get(applied.sql)
    if prop is None:
        return expressions.error(node, f"unknown property '{applied.sql}'")
    if len(applied.args) != len(prop.params):
        return expressions.error(node, f"'{prop.name}' takes {len(prop.params)} argument(s), given {len(applied.args)}")
    alias = expressions.query.alias("m")
    where = []
    event = objects.event_context(prop)
    for (ptype, pname, _), value in zip(prop.params, applied.args, strict=True):
        if value.kind == "error":
            return ERROR
        if model.parameter(pname) or model.is_subclass(ptype, "Experiment"):
            continue
        if objects.event_columns(ptype):  # an event: its row by its key
            key = objects.key(value, node)
            if key is None:
                return ERROR
            where.append(f"{alias}.event_key = {key[0]}")
            continue
        if value.kind == "row" and not model.is_subclass(value.cls, ptype):
            return expressions.error(node, f"'{prop.name}': its parameter {pname} is a {ptype}, given a {value.cls}")
        relation = objects.relation(ptype, node)
        if relation is None:
            return ERROR
        column = relation[3]
        key = objects.key(value, node)
        if column is None or key is None:
            return expressions.error(node, f"'{prop.name}': its parameter {pname} is no context of its rows")
        where.append(f"{alias}.{column} is not distinct from {key[0]}")
    for column in ("callpath_id", "region_id", "location_id"):
        if column not in event and not any(w.startswith(f"{alias}.{column} ") for w in where):
            where.append(f"{alias}.{column} is null")
    vtype = "boolean" if name == "condition" else "float"
    table = instances(prop.name) if event else prop.name
    sql = f"(select any_value({alias}.{name}) from {{ref:{table}}} as {alias} where {' and '.join(where)})"
    # at a row of a set a variable ranges over (FORALL p IN e.processes ...): Spark's form
    bound = expressions.query.bound
    ranging = next((bound[v.sql] for v in applied.args if v.kind == "row" and v.sql in bound), None)
    if ranging is None:
        return Val("scalar", sql=sql, type=vtype)
    return Val("scalar", sql=joined_part(ranging, table, alias, where, name, sql), type=vtype)


def built_on(expressions: Expressions, prop: PropertyDef, env, context_names: set) -> list[str]:
    """A metaproperty is defined where the property it is built on is: per property bound
    to the template and applied to contexts, its rows name the context (built on a
    property of events: where it has events of the metaproperty's call path and
    process). The SQL conditions of that, one per property and context."""
    objects, model = expressions.objects, expressions.model
    wanted: dict = {}  # (the rows' entry, their tests over {x}: a row of it)
    for call in prop.body.find_data("call"):
        applied = prop.bindings.get(str(call.children[0]).lower())
        target = (
            expressions.spec.properties.get(applied.sql) if applied is not None and applied.kind == "property" else None
        )
        if target is None:
            continue
        event = objects.event_context(target)
        if event:  # its events: of the context's call path and process, with a value (as entries.most_severe)
            columns = {model.mapping(env[n].cls).result_column: n for n in context_names}
            tests = [f"{{x}}.{c} = {objects.key(env[columns[c]], call)[0]}" for c in event if c in columns]
            if tests:
                wanted[(instances(target.name), (*tests, "{x}.value is not null"))] = None
            continue
        tests = []
        for argument, (ptype, _, _) in zip(call.children[1].children, target.params, strict=False):
            if not (isinstance(argument, lark.Tree) and argument.data == "name"):
                continue
            name = str(argument.children[0]).lower()
            if name not in context_names or model.mapping(ptype) is None:
                continue
            key = objects.key(env[name], call)
            if key is not None:
                tests.append(f"{{x}}.{model.mapping(ptype).result_column} = {key[0]}")
        if tests:
            wanted[(target.name, tuple(tests))] = None
    guards = []
    for name, tests in wanted:
        alias = expressions.query.alias("x")
        on = " and ".join(test.replace("{x}", alias) for test in tests)
        guards.append(f"exists (select 1 from {{ref:{name}}} as {alias} where {on})")
    return guards
