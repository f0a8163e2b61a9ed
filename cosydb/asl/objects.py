"""The objects of the data model as SQL, as supplied_data.yaml maps each class: the
relation of a class, an object's key, identity and class tests, and attributes read of a
row, an object or a set's element."""

from __future__ import annotations

import re

from .declarations import PropertyDef, Specification
from .model import SetOf
from .query import Query
from .values import ERROR, Source, Val, describe


class Objects:
    """Objects read in the SQL of one unit (its aliases and requirements: ``query``)."""

    def __init__(self, spec: Specification, query: Query):
        self.spec = spec
        self.query = query
        self.error = spec.problems.error

    @property
    def model(self):
        return self.spec.model

    def relation(self, class_name: str, node) -> tuple[str, str | None, list[str], str | None] | None:
        """The relation (SQL), key, class filter (SQL with {row}) and result column of a class."""
        mapping = self.model.mapping(class_name)
        if mapping is None:
            self.error(node, f"class {class_name} has no mapping in the supplied data specification")
            return None
        if not mapping.relation:
            self.error(node, f"class {class_name} is supplied only as an attribute of another class's object")
            return None
        self.query.require(mapping.requires)
        return mapping.sql, mapping.key, mapping.filters, mapping.result_column

    def event_columns(self, ptype) -> dict:
        """The result columns an object of class ``ptype`` names as a context if it is an
        event (supplied_data.yaml: ``context``), else none."""
        mapping = self.model.mapping(ptype) if isinstance(ptype, str) and self.model.cls(ptype) else None
        return mapping.context if mapping is not None else {}

    def event_context(self, prop: PropertyDef) -> dict:
        """The result columns an event parameter of ``prop`` names (none: no event)."""
        return next((c for c in (self.event_columns(ptype) for ptype, _, _ in prop.params) if c), {})

    def _chosen_key(self, value: Val, cls: str | None) -> str | None:
        """The key SQL of a reference to several classes when read as a ``cls``."""
        if cls is None:
            return None
        for name, sql in value.keys.items():
            if self.model.is_subclass(cls, name):
                return sql
        # a superclass (Region): the key of the class whose objects cosydb supplies for it
        supplied = self.model.mapping(cls)
        for name, sql in value.keys.items():
            mapping = self.model.mapping(name)
            if supplied is not None and mapping is not None and mapping.relation == supplied.relation:
                return sql
        return None

    def key(self, value: Val, node, other: str | None = None) -> tuple[str, bool] | None:
        """(key SQL, whether it may return several rows) of an object; ``other``: the class of
        what it is compared with (which key a reference to several classes uses)."""
        if value.keys:
            chosen = self._chosen_key(value, other)
            if chosen is None:
                self.error(node, f"a {value.cls} of several classes compares only with an object of one of them")
                return None
            return chosen, False
        if value.kind == "row":
            mapping = self.model.mapping(value.cls)
            if mapping is None or not mapping.key:
                self.error(node, f"a {value.cls} is not identified by one column: it cannot be compared")
                return None
            return f"{value.sql}.{mapping.key}", False
        if value.kind == "object":
            return value.sql, value.many
        if value.kind != "error":  # an error is reported where it is
            self.error(node, f"expected an object, found {describe(value)}")
        return None

    def same(self, left: Val, right: Val, op: str, node) -> Val:
        """``left == right`` (or ``!=``) of two objects: by their keys."""
        if (
            left.cls
            and right.cls
            and not (self.model.is_subclass(left.cls, right.cls) or self.model.is_subclass(right.cls, left.cls))
        ):
            return self.error(node, f"a {left.cls} is never a {right.cls}")
        a, b = self.key(left, node, right.cls), self.key(right, node, left.cls)
        if a is None or b is None:
            return Val("scalar", sql="null", type="boolean")
        (a_sql, a_many), (b_sql, b_many) = a, b
        if a_many or b_many:
            single, many = (a_sql, b_sql) if b_many else (b_sql, a_sql)
            sql = f"{single} in {many}"
        elif "null" in (a_sql, b_sql):
            sql = f"{b_sql if a_sql == 'null' else a_sql} is null"
        else:
            sql = f"{a_sql} is not distinct from {b_sql}"
        return Val("scalar", sql=f"({sql})" if op == "==" else f"(not ({sql}))", type="boolean")

    def is_a(self, obj: Val, class_name: str, node) -> str:
        """SQL: ``obj`` is a ``class_name`` (or of a subclass)."""
        if obj.keys:  # a reference to one of several classes: that one's key is set
            chosen = self._chosen_key(obj, class_name)
            if chosen is None:
                return "false"
            owner = next(name for name, sql in obj.keys.items() if sql == chosen)
            test = self.is_a(Val("object", sql=chosen, cls=owner), class_name, node)
            return f"({chosen} is not null and {test})"
        static = obj.cls if obj.kind != "unique" else obj.src.element
        if static is None:
            return "false"
        if self.model.is_subclass(static, class_name):
            return "true"
        if not self.model.is_subclass(class_name, static):
            return "false"
        found = self.relation(class_name, node)
        if found is None:
            return "null"
        relation, key, filters, _ = found
        if obj.kind == "row" and self.model.mapping(static).sql == relation:  # a row of its relation
            return " and ".join(f"({f.replace('{row}', obj.sql)})" for f in filters) or "true"
        alias = self.query.alias("o")
        own = self.key(obj, node)
        if own is None:
            return "null"
        tests = [f.replace("{row}", alias) for f in filters]
        if own[0].startswith("(select "):  # a key read by a subquery: not nested in another one
            where = f" where {' and '.join(tests)}" if tests else ""
            return f"coalesce({own[0]} in (select {alias}.{key} from {relation} as {alias}{where}), false)"
        where = " and ".join([f"{alias}.{key} = {own[0]}", *tests])
        return f"exists (select 1 from {relation} as {alias} where {where})"

    def read_as(self, value: Val, cls: str) -> Val:
        """``value`` read as a ``cls`` (a subclass of its class, as typeof found it, or as a
        function's parameter takes it): a row of another relation than cls's is the object
        its key names."""
        if value.kind == "row" and self.model.mapping(value.cls).sql != self.model.mapping(cls).sql:
            return Val("object", sql=f"{value.sql}.{self.model.mapping(value.cls).key}", cls=cls)
        if value.kind in ("row", "object") and not value.keys:
            return Val(value.kind, sql=value.sql, cls=cls, many=value.many)
        return value

    def attribute(self, base: Val, cls: str, node, expected: str | None) -> Val:
        """Attribute ``node.children[1]`` of ``base``, an object of class ``cls``; ``expected``:
        the class of the function whose body reads it (None: no class)."""
        name = str(node.children[1])
        if base.keys:  # a reference to one of several classes: the one it was narrowed to
            chosen = self._chosen_key(base, cls)
            if chosen is None:
                return self.error(node, f"'{name}': test which class this {cls} is first (typeof(...) == C AND ...)")
            base = Val("object", sql=chosen, cls=cls)
        attribute = self.model.attribute(cls, name)
        if attribute is None:
            return self.error(
                node.children[1] if hasattr(node.children[1], "line") else node,
                f"class {cls} has no attribute '{name}'",
            )
        mapping = self.model.mapping(cls)
        how = (mapping.attributes if mapping else {}).get(name.lower())
        if how is None:
            return self.error(node, f"{cls}.{attribute.name} is not supplied by cosydb (supplied_data.yaml)")
        self.query.require(mapping.requires)
        if isinstance(attribute.type, SetOf):
            return self._set_attribute(base, attribute, how, node, expected)
        if isinstance(how, str):
            how = {"column": how}
        self.query.require(how.get("requires"))  # what reading this attribute needs (a machine constant)
        if how.get("row"):  # an object whose attributes are columns of this row (HPFRegionSummary.sums)
            return self._same_row(base, self.model.cls(how["row"]).name, node)
        if how.get("keys"):  # a reference to one of several classes, each with its key column
            keys = {self.model.cls(k).name: self.read(base, f"{{row}}.{c}", mapping) for k, c in how["keys"].items()}
            return Val("object", sql="", cls=attribute.type, keys=keys)
        expression = how.get("sql") or f"{{row}}.{how['column']}"
        if how.get("param"):  # a catalog parameter its SQL reads as {param}
            param = dict(how["param"])
            name = param.pop("name")
            self.query.params[name] = param
            expression = expression.replace("{param}", f"${name}")
        value = self.read(base, expression, mapping)
        if how.get("class"):  # a reference: to the class cosydb supplies (FuncCall for a Region)
            supplied = self.model.cls(how["class"]).name
            declared = attribute.type if isinstance(attribute.type, str) and self.model.cls(attribute.type) else None
            return Val(
                "object",
                sql=value,
                cls=declared if declared and not self.model.is_subclass(supplied, declared) else supplied,
            )
        vtype = attribute.type if attribute.type in ("int", "float", "boolean", "String", "DateTime") else "String"
        if how.get("several"):  # several values: a subquery over the row, compared by membership
            if base.kind != "row":
                return self.error(
                    node, f"{cls}.{attribute.name} has several values: read it of a context or set element"
                )
            return Val("scalar", sql=value, type=vtype, many=True)
        query = (base.src, base.src.any_value(expression)) if base.kind == "unique" else None
        return Val("scalar", sql=value, type=vtype, query=query)

    def _same_row(self, base: Val, cls: str, node) -> Val:
        """The object of class ``cls`` made of the row of ``base`` (its attributes: columns of it)."""
        if base.kind == "row":
            return Val("row", sql=base.sql, cls=cls)
        if base.kind == "unique":
            src = base.src
            return Val("unique", src=Source(src.relation, src.alias, src.where, cls, src.joins))
        return self.error(node, f"a {cls} of {describe(base)} is read of a context or a set's element only")

    def read(self, base: Val, expression: str, mapping) -> str:
        """SQL of an expression over the row of ``base`` ({row})."""
        if base.kind == "row":
            return expression.replace("{row}", base.sql)
        if base.kind == "unique":
            return f"({base.src.rows(base.src.any_value(expression))})"
        alias = self.query.alias("o")
        inner = expression.replace("{row}", alias)
        rows = f"select any_value({inner}) from {mapping.sql} as {alias}"
        if base.baseline:  # the --baseline experiment: its tables (and its one row of experiments)
            return "(" + rows.replace("{ref:", "{baseline:") + ")"
        if not mapping.key or not base.sql:  # the Experiment: the one row of its relation
            return f"({rows})"
        return f"({rows} where {alias}.{mapping.key} = {base.sql})"

    def _set_attribute(self, base: Val, attribute, how, node, expected: str | None) -> Val:
        """A set attribute: the objects of its element class ``how`` relates to ``base`` (its
        ``where``, over ``{item}`` and ``{row}``, base's row, each column of which is read
        through base where that is no row). In the body of a function whose type is a class
        (``HPFRegionSummary summary(...)``: ``expected``), a set of a superclass of it holds
        that class's objects (``e.profile``, Appendix B's setof RegionSummary, holds the HPF
        summaries)."""
        element = attribute.type.element
        if isinstance(how, dict) and "set" in how:
            element = how["set"]
        declared = attribute.type.element
        if isinstance(declared, str) and expected and self.model.is_subclass(expected, declared):
            element = expected
        if base.baseline or (base.kind == "unique" and base.src.relation.startswith("{relb:")):
            return self._baseline_set(base, element, attribute, node)
        found = self.relation(element, node)
        if found is None:
            return ERROR
        relation, _, filters, _ = found
        alias = self.query.alias(attribute.name)
        where = [f.replace("{row}", alias) for f in filters]
        condition = how.get("where", "true") if isinstance(how, dict) else "true"
        if condition != "true":
            if base.kind == "row":
                over = condition.replace("{row}", base.sql)
            else:  # each column of base's row read through it
                cls = base.cls if base.kind != "unique" else base.src.element
                mapping = self.model.mapping(cls)
                over = re.sub(r"\{row\}\.(\w+)", lambda m: self.read(base, f"{{row}}.{m.group(1)}", mapping), condition)
            where.append(over.replace("{item}", alias))
        return Val("set", src=Source(relation, alias, where, element))

    def _baseline_set(self, base: Val, element: str, attribute, node) -> Val:
        """A set attribute of the --baseline experiment (``seq.profile``): its element class's
        objects there (its mapping's ``baseline`` relation, whose references hold the loaded
        experiment's keys: a region by its call path's path)."""
        if not base.baseline:
            what = describe(base).removeprefix("a ")
            return self.error(node, f"{attribute.name} of the baseline experiment's {what} is not supplied")
        mapping = self.model.mapping(element)
        if mapping is None or not mapping.baseline:
            return self.error(node, f"class {element} is not supplied for the baseline experiment (supplied_data.yaml)")
        self.query.require(mapping.requires)
        alias = self.query.alias(attribute.name)
        where = [f.replace("{row}", alias) for f in mapping.filters]
        return Val("set", src=Source(mapping.baseline_sql, alias, where, element))
