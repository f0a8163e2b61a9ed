"""A property as the SELECT of the catalog's result rows: its context parameters range over
their classes' relations (one row per context), its conditions, confidence and severity
are translated expressions, several conditions merge into one row per context, and the
subquery relations it reads come first as CTEs."""

from __future__ import annotations

import re
from dataclasses import dataclass

import lark

from . import metaproperties
from .declarations import PropertyDef, Specification, definition
from .entries import jinja
from .expressions import Expressions, conjuncts_of, names_read
from .model import PRIMITIVES, DataModel, SetOf
from .readings import mpi_functions
from .values import ERROR, Val, sql_string

#: The columns of a result row.
RESULT_COLUMNS = ("callpath_id", "region_id", "location_id", "condition_id", "condition", "confidence", "severity")
RESULT_COLUMNS += ("value", "details")


@dataclass
class Compiled:
    """A property's SQL (Jinja), the unit of its value, the catalog parameters it reads, what
    it needs of an experiment (catalog.REQUIREMENTS) and whether its rows are per event."""

    sql: str
    unit: str
    params: dict
    requires: list
    of_event: bool


def compile_property(spec: Specification, prop: PropertyDef, bindings: dict | None = None) -> Compiled:
    """The SQL of ``prop``'s rows; ``bindings``: what its template parameters are bound to
    (default: the instantiation's; a template checked on its own: their signatures)."""
    return _PropertyQuery(spec, prop).compile(bindings if bindings is not None else prop.bindings)


class _PropertyQuery:
    """The result rows of one property: its contexts (the FROM items and the result columns'
    keys), translated by one ``Expressions``."""

    def __init__(self, spec: Specification, prop: PropertyDef):
        self.spec, self.prop = spec, prop
        self.expressions = Expressions(spec)
        self.query = self.expressions.query
        self.error = spec.problems.error
        self.froms: list[str] = []
        self.keys = {"callpath_id": "null::bigint", "region_id": "null::bigint", "location_id": "null::bigint"}
        self.instance: str | None = None  # the key of the event a property of an event is of
        self.valued: str | None = None  # a context of values (String var): its SQL
        self.context_tests: list[str] = []  # the tests that tie it to its context

    @property
    def model(self) -> DataModel:
        return self.spec.model

    def compile(self, bindings: dict) -> Compiled:
        """The property's rows: a SELECT per condition, merged where there are several."""
        env, contexts, (conditions, confidences, severities) = self._environment(bindings)
        condition_list = []
        for cond in conditions.children:
            cond_id = _cond_id(cond.children[0]) if len(cond.children) == 2 else None
            condition_list.append((cond_id, self.expressions.boolean(cond.children[-1], env)))
        ids = [c for c, _ in condition_list if c]
        if ids and len(ids) != len(condition_list):
            self.error(conditions, "either every condition has an id or none has")
        if len(set(ids)) != len(ids):
            self.error(conditions, "a condition id is given twice")
        guards = self.context_tests + self._guards(conditions, env, contexts)
        confidence = self._guarded(confidences, env, ids, "confidence")
        severity = self._guarded(severities, env, ids, "severity")
        # a context of values is named by condition_id (with several conditions: in the merge)
        valued = self.valued if len(condition_list) > 1 else None
        rows = []
        for cond_id, condition in condition_list:
            conf_sql = (confidence.get(cond_id) or confidence.get(None) or ("null",))[0]
            sev_sql, value_sql, denominator, _ = (
                severity.get(cond_id) or severity.get(None) or ("null", None, None, None)
            )
            if denominator is not None:  # not evaluable where the severity's denominator is 0
                condition = f"case when ({denominator}) <> 0 then {condition} end"
            row_id = _condition_id(cond_id, None if valued else self.valued)
            rows.append(self._row(row_id, condition, conf_sql, sev_sql, value_sql, guards, valued))
        units = {unit for _, _, _, unit in severity.values()}
        unit = units.pop() if len(units) == 1 and None not in units else "ratio"
        if self.instance and len(rows) > 1:
            self.error(conditions, "a property of an event has one condition")
        sql = rows[0] if len(rows) == 1 else _merged(rows, valued)
        query = self.query
        return Compiled(jinja(self._with_relations(sql)), unit, query.params, query.requires, self.instance is not None)

    def _environment(self, bindings: dict) -> tuple[dict, set, list]:
        """What the body's names are bound to (``bindings``, the parameters, the LET constants:
        translated where first read), the names of the parameters that are contexts (lower
        case), and the body's conditions, confidences and severities."""
        prop = self.prop
        env: dict[str, object] = dict(bindings)
        contexts = set()
        self.expressions.names = {pname.lower(): pname for _, pname, _ in prop.params}
        for ptype, pname, pnode in prop.params:
            bound = self._parameter(ptype, pname, pnode)
            env[pname.lower()] = bound
            if bound.kind == "row":
                contexts.add(pname.lower())
        parts = prop.body.children
        if parts and parts[0].data == "local_defs":
            for node in parts[0].children:
                d = definition(node)  # a type left out (as the report's templates do): the expression's
                if d.params:
                    self.error(node, f"'{d.name}': a local definition is a constant, without parameters")
                env[d.name.lower()] = ("let", d, dict(env))
            parts = parts[1:]
        return env, contexts, parts

    def _guards(self, conditions: lark.Tree, env, contexts: set) -> list[str]:
        """The conditions that delimit the rows: the typeof tests of a context that every
        condition makes, and a metaproperty's (``metaproperties.built_on``)."""
        common = None
        for cond in conditions.children:
            texts = {
                self.spec.source(c): c
                for c in conjuncts_of(cond.children[-1])
                if _is_context_guard(c, contexts, self.model)
            }
            common = texts if common is None else {t: c for t, c in common.items() if t in texts}
        guards = self.expressions.conjunction((common or {}).values(), env)
        return guards + metaproperties.built_on(self.expressions, self.prop, env, contexts)

    def _row(self, row_id: str, condition: str, confidence: str, severity: str, value, guards, valued) -> str:
        """The SELECT of one condition's result rows (SQL of each column; ``guards``: the
        conditions that delimit the rows; ``valued``: a context of values its merge names)."""
        lets = "".join(f"\n    {let}" for let in self.query.lets)
        extra = ", context_value" if valued else ""
        return (
            f"select {', '.join(RESULT_COLUMNS)}{', event_key' if self.instance else ''}{extra}\n"
            "from (\n"
            "    select\n"
            + (f"        {self.instance} as event_key,\n" if self.instance else "")
            + (f"        {valued} as context_value,\n" if valued else "")
            + f"        {self.keys['callpath_id']} as callpath_id,\n"
            f"        {self.keys['region_id']} as region_id,\n"
            f"        {self.keys['location_id']} as location_id,\n"
            f"        {row_id}::varchar as condition_id,\n"
            f"        {condition} as condition,\n"
            f"        ({confidence})::double as confidence,\n"
            f"        ({severity})::double as severity,\n"
            f"        ({value or 'null'})::double as value,\n"
            "        null::varchar as details\n"
            f"    from {' cross join '.join(self.froms) if self.froms else '(select 1)'}{lets}\n"
            + (f"    where {' and '.join(guards)}\n" if guards else "")
            + ")"
        )

    def _with_relations(self, sql: str) -> str:
        """``sql`` preceded by a CTE per subquery relation it reads ({rel:Class})."""
        owners = dict.fromkeys(re.findall(r"\{(relb?):(\w+)\}", sql))
        if not owners:
            return sql
        mappings = {o: self.model.mapping(o) for _, o in owners}
        ctes = ",\n\n".join(
            f"{_cte(o, kind)} as {(mappings[o].baseline if kind == 'relb' else mappings[o].relation).strip()}"
            for kind, o in owners
        )
        return f"with {ctes}\n\n" + re.sub(r"\{(relb?):(\w+)\}", lambda m: _cte(m.group(2), m.group(1)), sql)

    def _parameter(self, ptype, pname: str, node) -> Val:
        """A parameter: bound to its object (supplied_data.yaml's parameters, the Experiment),
        or a context, a row per object of its class."""
        if ptype in PRIMITIVES.values():
            return self._value_context(ptype, pname, node)
        if isinstance(ptype, SetOf) or self.model.cls(ptype) is None:
            return self.error(node, f"parameter {pname}: unknown class '{ptype}'")
        found = self.model.parameter(pname)
        if found is not None:
            supplied, binding = found
            if supplied.lower() != pname.lower():
                self.expressions.reading(
                    node, f"parameter '{pname}' read as {supplied}, the parameter of that name in another spelling"
                )
            if not self.model.is_subclass(binding["class"], ptype) and not self.model.is_subclass(
                ptype, binding["class"]
            ):
                return self.error(node, f"parameter {pname} is a {binding['class']}, not a {ptype}")
            self.query.require(binding.get("requires"))
            if binding.get("experiment") == "baseline":  # the --baseline experiment
                return Val("object", sql="", cls=ptype, baseline=True)
            return Val("object", sql=binding["key"], cls=ptype, many=True)
        if self.model.is_subclass(ptype, "Experiment") or self.model.is_subclass(ptype, "Application"):
            return Val("object", sql="", cls=ptype)  # the loaded one
        found = self.expressions.objects.relation(ptype, node)
        if found is None:
            return ERROR
        relation, key, filters, column = found
        alias = self.query.alias(pname)
        where = " and ".join(f.replace("{row}", alias) for f in filters)
        self.froms.append(
            f"(select * from {relation} as {alias} where {where}) as {alias}" if where else f"{relation} as {alias}"
        )
        event = self.expressions.objects.event_columns(ptype)
        if self.instance is not None or (event and any(k != "null::bigint" for k in self.keys.values())):
            return self.error(node, f"parameter {pname}: a property of an event has no other context")
        if event:  # an event: a row per event, named by its call path and location
            self.keys.update({c: f"{alias}.{source}" for c, source in event.items()})
            self.instance = f"{alias}.{key}"
            return Val("row", sql=alias, cls=ptype)
        if column is None or self.keys[column] != "null::bigint":
            return self.error(node, f"parameter {pname}: a {ptype} is no context of a result row (or is given twice)")
        self.keys[column] = f"{alias}.{key}"
        return Val("row", sql=alias, cls=ptype)

    def _value_context(self, ptype, pname: str, node) -> Val:
        """A parameter of a primitive type whose values supplied_data.yaml gives (``String
        var``: the variables of a call path's region): a context, a row per value of the
        context it belongs to (``per``: a result column another parameter sets), named by
        the result row's condition_id."""
        found = self.model.parameter(pname)
        spec = found[1] if found is not None else {}
        if "values" not in spec:
            return self.error(node, f"parameter {pname}: a {ptype} has no values to range over (supplied_data.yaml)")
        if spec.get("class") != ptype:
            return self.error(node, f"parameter {pname} is a {spec.get('class')}, not a {ptype}")
        per = spec["per"]
        if self.keys.get(per, "null::bigint") == "null::bigint":
            return self.error(node, f"parameter {pname}: its values are those of a {per}: name that context first")
        if self.valued is not None:
            return self.error(node, f"parameter {pname}: a result row names one context of values")
        self.query.require(spec.get("requires"))
        alias = self.query.alias(pname)
        self.froms.append(f"{spec['values'].strip()} as {alias}")
        self.context_tests.append(f"{alias}.{per} = {self.keys[per]}")
        self.valued = f"{alias}.value"
        return Val("scalar", sql=self.valued, type=ptype)

    def _guarded(self, node: lark.Tree, env, ids: list, what: str) -> dict:
        """cond id (or None) -> (SQL, value SQL, denominator SQL, unit) of a CONFIDENCE or
        SEVERITY: a severity that is a ratio a / b has the value a (in seconds where b is a
        duration, else a count: cache misses per load and store), and it is not evaluable
        where b is 0 or unknown."""
        values = node.children[0]
        entries = values.children[1:] if values.data == "max_of" else [values]
        result: dict = {}
        for entry in entries:
            guard = _cond_id(entry.children[0]) if len(entry.children) == 2 else None
            if guard is not None and guard not in ids:
                self.error(entry, f"{what}: no condition has the id '{guard}'")
            expr = entry.children[-1]
            compiled = self.expressions.numeric(expr, env)
            value = denominator = unit = None
            if (
                what == "severity"
                and expr.data == "product"
                and len(expr.children) >= 3
                and str(expr.children[-2]) == "/"
            ):  # a / b, or a * ... / b (nr_executions * parallel_region_cost / duration): its value a * ...
                numerator = expr.children[0] if len(expr.children) == 3 else lark.Tree("product", expr.children[:-2])
                value = self.expressions.numeric(numerator, env)
                denominator = self.expressions.numeric(expr.children[-1], env)
                unit = "s" if "duration(" in self.spec.source(expr.children[-1]).lower() else "count"
            if guard in result:
                previous = result[guard]
                compiled = f"greatest({previous[0]}, {compiled})"
                value = denominator = unit = None
            result[guard] = (compiled, value, denominator, unit)
        return result


def _merged(rows: list[str], valued: str | None) -> str:
    """Several conditions' rows as one per context: the property holds where one does, its
    confidence and severity the MAX over those that hold (report, figure 3.2), condition_id
    lists them (most severe, then most confident first), and then the context's value
    (``Cond1,Cond2:x``)."""
    ids = "string_agg(condition_id, ',' order by severity desc, confidence desc, condition_id)"
    ids += " filter (where condition)"
    if valued:
        ids = f"coalesce({ids} || ':', '') || context_value"
    return (
        "select\n"
        "    callpath_id,\n"
        "    region_id,\n"
        "    location_id,\n"
        f"    {ids} as condition_id,\n"
        "    bool_or(condition) as condition,\n"
        "    coalesce(max(confidence) filter (where condition), max(confidence)) as confidence,\n"
        "    coalesce(max(severity) filter (where condition), max(severity)) as severity,\n"
        "    coalesce(arg_max(value, severity) filter (where condition), arg_max(value, severity)) as value,\n"
        "    null::varchar as details\n"
        "from (\n" + "\n\nunion all\n\n".join(rows) + "\n)\n"
        f"group by callpath_id, region_id, location_id{', context_value' if valued else ''}"
    )


def _is_context_guard(node, contexts: set, model: DataModel) -> bool:
    """A test of what the context is, not of what was measured there: it reads only
    context parameters, their attributes (r.CalledFunc.Name), typeof, literals and names
    of classes, enum values and MPI functions; no function call, set or aggregate. Such a conjunct of
    every condition delimits the property's rows (a context that fails it is outside the
    property, as one outside its parameter's class; the catalog's properties of MPI
    calls have rows for those calls only) rather than being a condition that fails.
    ``contexts``: the names of the parameters that are contexts (lower case)."""

    def static(n) -> bool:
        if isinstance(n, lark.Token):
            return True
        if n.data in ("comparison", "or_expr", "and_expr", "not_", "string", "number"):
            return all(static(c) for c in n.children)
        if n.data == "attribute":
            return static(n.children[0])
        if n.data == "name":
            return True  # a context, a class or an enum value (anything else is no guard: checked below)
        if n.data == "call" and str(n.children[0]).lower() == "typeof":
            return all(static(c) for c in n.children[1].children)
        return False

    if not (isinstance(node, lark.Tree) and static(node)):
        return False
    read = names_read(node)
    return bool(read & contexts) and all(
        n in contexts or n in model.classes or n in model.enum_values or n in mpi_functions(lower=True) for n in read
    )


def _cond_id(node) -> str:
    token = node.children[0] if isinstance(node, lark.Tree) else node
    return str(token).strip("() \t\n")


def _condition_id(cond_id: str | None, valued: str | None) -> str:
    """SQL of a row's condition_id: its condition's id, and the value of a context of values
    (``valued``: SQL) after it (``Cond1:x``, or ``x`` without an id)."""
    if valued is None:
        return sql_string(cond_id)
    return f"{sql_string(cond_id + ':')} || {valued}" if cond_id else valued


def _cte(owner: str, kind: str = "rel") -> str:
    """The CTE name of a class's subquery relation: RegionSummary -> asl_region_summary (of the
    baseline experiment, kind relb: asl_region_summary_baseline)."""
    name = "asl_" + re.sub(r"(?<!^)(?=[A-Z])", "_", owner).lower()
    return name + "_baseline" if kind == "relb" else name
