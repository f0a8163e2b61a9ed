"""What translating an expression yields: a ``Val`` (its kind, type and SQL), and the rows
of a set (``Source``)."""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from .spark_forms import on_spark


@dataclass
class Source:
    """The rows of a set: ``relation AS alias WHERE where``; ``element`` is a class name
    (rows are objects) or a primitive type (rows hold one column, value)."""

    relation: str
    alias: str
    where: list[str]
    element: object
    joins: list[str] = field(default_factory=list)  # the rows of properties read at each row

    def rebind(self, alias: str) -> Source:
        """The same rows under another alias."""

        def renamed(texts: list[str]) -> list[str]:
            return [re.sub(rf"\b{re.escape(self.alias)}\.", f"{alias}.", t) for t in texts]

        return Source(self.relation, alias, renamed(self.where), self.element, renamed(self.joins))

    def source(self) -> str:
        """The FROM item: ``relation AS alias`` with its joins (Spark's: ``on_spark``)."""
        return " ".join([f"{self.relation} as {self.alias}", *(on_spark(j, "") for j in self.joins)])

    def rows(self, select: str, extra: list[str] = ()) -> str:
        """``select <select> from <the rows> [where ...]`` (``extra``: more conditions)."""
        where = [*self.where, *extra]
        return f"select {select} from {self.source()}" + (f" where {' and '.join(where)}" if where else "")

    def any_value(self, expression: str) -> str:
        """The aggregate reading ``expression`` ({row}) of the element of a one-element set."""
        return "any_value(" + expression.replace("{row}", self.alias) + ")"


@dataclass
class Val:
    """A compiled expression. kind: scalar (sql, type), object (sql = its key; many: the
    key SQL may return several rows), row (sql = the alias of a row of cls), set (src),
    unique (src: the element of a one-element set), class (a class name as a value),
    typeof (sql: the object whose class is asked), property (a property applied to
    arguments), function (a template's function parameter bound to a function), signature
    (a template's parameter checked unbound: cls function or property, type what a function
    returns), or error (already reported)."""

    kind: str
    sql: str = ""
    type: object = None
    cls: str | None = None
    src: Source | None = None
    many: bool = False
    args: list = field(default_factory=list)
    keys: dict = field(default_factory=dict)  # a reference to one of several classes: class -> key SQL
    query: tuple | None = None  # a scalar that is one aggregate over a set: (its Source, the aggregate)
    named: str | None = None  # an unquoted MPI function's name: the Function, compared with a String its name
    baseline: bool = False  # the --baseline experiment (an Experiment parameter bound to it)


ERROR = Val("error")


def describe(value: Val) -> str:
    """What ``value`` is, as a problem names it (``a float value``, ``a set of Region``)."""
    if value.kind == "scalar":
        return f"a {value.type} value"
    if value.kind in ("row", "object"):
        return f"a {value.cls}"
    if value.kind == "unique":
        return f"a {value.src.element}"
    if value.kind == "set":
        return f"a set of {value.src.element}"
    if value.kind == "class":
        return f"the class {value.cls}"
    return value.kind


def sql_string(value) -> str:
    """The SQL literal of a string (``null`` for None)."""
    return "null" if value is None else "'" + str(value).replace("'", "''") + "'"
