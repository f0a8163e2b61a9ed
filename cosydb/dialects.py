"""cosydb's SQL for another engine than DuckDB: ``sql/`` and the catalog are written once, in
DuckDB's dialect, and ``translate`` renders them for Apache Spark.

sqlglot translates the dialect (functions, types, NULL ordering, ...). What sqlglot passes
through untranslated, cosydb rewrites on sqlglot's syntax tree first:

- ``ASOF [LEFT] JOIN r ON <equalities> AND <left> OP r.key``: two equi-joins, the left rows
  to the right key they match (the keys of both sides sorted in one window), then to one
  right row of that key; where the left key reads more than one table, a join on the
  interval of keys each right row answers (``lead``/``lag`` of the key);
- a scalar macro of ``sql/`` (``ticks_to_s(...)``): its body, inlined;
- ``WITH x AS MATERIALIZED``: with ``statements``, x computed first, on its own (else, as
  ``NOT MATERIALIZED``, the hint dropped);
- ``UBIGINT``: ``DECIMAL(20,0)``, Spark's type for Parquet's unsigned 64-bit integers;
- ``a / b``: IEEE 754's quotient for a zero divisor (+-inf, NaN), as DuckDB; Spark's is NULL;
- ``isfinite(x)``: neither NaN nor infinite;
- ``hash(...)``: ``xxhash64(...)``, a 64-bit hash as DuckDB's (its values differ: a hash is an
  identity within one database, never compared across engines);
- a named window refined in ``OVER (w ROWS ...)``: the window's definition, inlined;
- ``list(x ORDER BY ...)``: sorted structs, since Spark's ``collect_list`` has no order;
  ``sum(x ORDER BY ...)``: those values added in order;
- ``a[i]`` and ``a[i:j]`` on lists (1-based): ``element_at`` and ``slice``;
- ``json_object(k, v, ...)``: ``to_json(named_struct(k, v, ...))``; ``json_merge_patch(a, b)``
  of two objects with different keys: their members joined;
- CTEs of one name in two subqueries (a template used twice): named apart, since sqlglot's
  Spark SQL moves every CTE to the query's one ``WITH``;
- ``row_number() OVER ()``: numbered in ``monotonically_increasing_id()`` order (Spark
  numbers rows only in an order).
- a subquery reading a query two or more levels out (Spark resolves one): decorrelated, the
  subquery lifted into a derived table of the outer table it reads, or the outer column
  carried in as a column of a table of the query around it (``_decorrelated``); an
  aggregate of a correlated subquery that reads an outer column or holds a correlated
  subquery (Spark refuses the one, fails at run time on the other): the column carried into
  the subquery's table, the subquery lifted (``_aggregate_decorrelated``).

A construct with no translation (``UNION ... BY NAME``, a window frame ``EXCLUDE``, ...) is
an error naming the file and the construct.
"""

from __future__ import annotations

import itertools
import re
from collections import Counter

import sqlglot
from sqlglot import exp
from sqlglot.errors import ErrorLevel, SqlglotError
from sqlglot.optimizer.scope import ScopeType, traverse_scope

from .errors import CosyError

#: The helper column the ASOF rewrite adds to a join's right side (suffixed by its alias).
_NEXT, _PREVIOUS = "cosydb_asof_next", "cosydb_asof_previous"
_FLIPPED = {exp.GT: exp.LT, exp.GTE: exp.LTE, exp.LT: exp.GT, exp.LTE: exp.GTE}


def scalar_macros(sources: dict[str, str]) -> dict[str, tuple[list[str], exp.Expression]]:
    """The scalar macros among ``sql/`` macro bodies (``name(a, b) as expr``): name -> (parameters, body)."""
    macros = {}
    for name, source in sources.items():
        text = "\n".join(line for line in source.splitlines() if not line.lstrip().startswith("--"))
        match = re.match(r"\s*(\w+)\s*\(([^)]*)\)\s+as\s+(?!table\b)(.*)", text, re.S | re.I)
        if match and match.group(1) == name:
            parameters = [p.strip() for p in match.group(2).split(",") if p.strip()]
            macros[name] = (parameters, sqlglot.parse_one(match.group(3), read="duckdb"))
    return macros


def translate(sql: str, engine: str, where, macros: dict | None = None) -> str:
    """``sql`` (DuckDB's dialect) for ``engine``; ``macros``: the scalar macros to inline."""
    if engine == "duckdb":
        return sql
    return _generated(rewritten(sql, where, macros), engine, where)


def statements(sql: str, engine: str, where, macros: dict | None = None, prefix: str = "cosydb") -> list:
    """``sql`` for ``engine`` as the statements that compute it: first each top-level CTE
    marked ``MATERIALIZED`` (DuckDB's hint: compute it once) or read more than once, as a
    ``(name, sql)`` of its own, named ``<prefix>__<cte>``, which the engine computes into a
    view of that name before the later statements read it; last ``(None, sql)``, the query.
    (Spark computes a CTE again at every read: DuckDB computes one read twice once. Nor
    does Spark reuse a cached plan inside a recursive CTE.)"""
    if engine == "duckdb":
        return [(None, sql)]
    tree = rewritten(sql, where, macros)
    steps = []
    with_ = tree.args.get("with_")
    hoisted = (
        [c.alias for c in with_.expressions if c.args.get("materialized") or _reads(tree, c.alias) > 1] if with_ else []
    )
    for alias in hoisted:
        with_ = tree.args["with_"]
        ctes = with_.expressions
        position = next(i for i, c in enumerate(ctes) if c.alias == alias)
        alone = exp.select(exp.Star()).from_(alias)
        definitions = [c.copy() for c in ctes[: position + 1]]
        alone.set("with_", exp.With(expressions=definitions, recursive=with_.args.get("recursive")))
        name = f"{prefix}__{alias}"
        steps.append((name, _generated(_unread_dropped(alone), engine, where)))
        del ctes[position]
        tree = _renamed(tree, alias, name)
    return [*steps, (None, _generated(_unread_dropped(tree), engine, where))]


def _unread_dropped(tree: exp.Expression) -> exp.Expression:
    """``tree`` without the top-level CTEs it does not read (those a hoisted one alone read)."""
    with_ = tree.args.get("with_")
    if with_:
        while unread := [c for c in with_.expressions if _reads(tree, c.alias) == 0]:
            for cte in unread:
                with_.expressions.remove(cte)
        if not with_.expressions:
            tree.set("with_", None)
    return tree


def _reads(tree: exp.Expression, name: str) -> int:
    """How often ``tree`` reads table ``name`` (a CTE)."""
    return sum(1 for t in tree.find_all(exp.Table) if _names(t, name))


def _names(node: exp.Expression, name: str) -> bool:
    """Whether ``node`` reads the unqualified table (or CTE) ``name``."""
    return isinstance(node, exp.Table) and not node.args.get("db") and node.name == name


def _reading(table: exp.Table, new: str) -> exp.Table:
    """``table`` reading ``new`` instead, under its alias (else its old name)."""
    alias = table.args.get("alias") or exp.TableAlias(this=exp.to_identifier(table.name))
    return exp.Table(this=exp.to_identifier(new), alias=alias)


def _generated(tree: exp.Expression, engine: str, where) -> str:
    """``tree`` in ``engine``'s dialect, CTE hints dropped; what sqlglot cannot render there
    is an error naming ``where``."""
    for cte in tree.find_all(exp.CTE):
        cte.set("materialized", None)
    try:
        return tree.sql(dialect=engine, unsupported_level=ErrorLevel.RAISE, copy=False)  # the tree is used up
    except SqlglotError as error:
        raise CosyError(where, f"cannot be translated for {engine}: {' '.join(str(error).split())}") from None


def _renamed(tree: exp.Expression, old: str, new: str) -> exp.Expression:
    """``tree``, changed in place, with its references to table ``old`` reading ``new`` (aliased ``old``)."""

    return tree.transform(lambda node: _reading(node, new) if _names(node, old) else node, copy=False)


def decorrelated(sql: str, where) -> str:
    """``sql`` (DuckDB's dialect) with its subqueries reading the query right around them
    only (``_decorrelated``), in DuckDB's dialect: what Spark runs, to run on DuckDB."""
    try:
        tree = sqlglot.parse_one(sql, read="duckdb")
    except SqlglotError as error:
        raise CosyError(where, f"cannot be translated: {' '.join(str(error).split())}") from None
    _decorrelated(tree, where)
    return tree.sql(dialect="duckdb")


def rewritten(sql: str, where, macros: dict | None = None) -> exp.Expression:
    """sqlglot's tree of ``sql`` (DuckDB's dialect) with cosydb's rewrites applied; SQL
    sqlglot cannot read is an error naming ``where``."""
    try:
        tree = sqlglot.parse_one(sql, read="duckdb")
    except SqlglotError as error:
        raise CosyError(where, f"cannot be translated: {' '.join(str(error).split())}") from None
    _nested_ctes_named_apart(tree)
    _decorrelated(tree, where)
    # in place (copy=False): the tree is this call's own, and sqlglot's copy of it took half the time
    return _growing_frames(
        _ieee_divisions(tree.transform(lambda node: _rewrite(node, where, macros or {}), copy=False))
    )


def _nested_ctes_named_apart(tree: exp.Expression) -> None:
    """``tree`` with each nested CTE whose name another CTE has renamed ``<name>_<n>``, with
    the tables that read it (aliased as before): sqlglot's Spark SQL moves every CTE to the
    query's one ``WITH`` (Spark 2 allowed no other), where a name is defined once. (Two
    uses of one template, e.g. ``scalasca.time_maps`` twice in ``delay_shares``, define
    the same CTEs in two subqueries.)"""
    ctes = list(tree.find_all(exp.CTE))
    named = Counter(cte.alias for cte in ctes)
    taken = set(named) | {table.name for table in tree.find_all(exp.Table)}
    for cte in ctes:
        old, with_ = cte.alias, cte.parent
        if named[old] == 1 or with_.parent is tree:  # unique, or of the top level: kept
            continue
        named[old] -= 1
        new = next(name for n in itertools.count(2) if (name := f"{old}_{n}") not in taken)
        taken.add(new)
        for table in list(with_.parent.find_all(exp.Table)):
            if _names(table, old) and _defining_with(table) is with_:
                table.replace(_reading(table, new))
        cte.args["alias"].set("this", exp.to_identifier(new))


def _defining_with(table: exp.Table) -> exp.With | None:
    """The nearest ``WITH`` around ``table`` that defines a CTE of its name (None: a table)."""
    node = table.parent
    while node is not None:
        with_ = node.args.get("with_")
        if isinstance(with_, exp.With) and any(cte.alias == table.name for cte in with_.expressions):
            return with_
        node = node.parent
    return None


#: The helper columns that carry an outer row's value into a nested query (numbered).
_OUTER = "cosydb_outer"

#: Scopes that see the outer query of the query around them (a derived table, a branch of a
#: UNION, a CTE): Spark resolves an outer column there as in the query around.
_TRANSPARENT = (ScopeType.DERIVED_TABLE, ScopeType.SET_OPERATION, ScopeType.CTE)


def _decorrelated(tree: exp.Expression, where) -> None:
    """``tree`` rewritten in place so that each subquery reads outer columns of the query
    right around it only, as Spark resolves them (DuckDB: of any query further out; compiled
    ASL nests its quantifiers and its objects' attributes so).

    A subquery that reads a query two or more levels out, ``T``, is repeated until none is:

    - lifted, when all it reads from outside is one table ``T`` of that query (an object's
      attribute of the outer row, ``(SELECT any_value(o.x) FROM o WHERE o.k = T.k)``, or an
      ``EXISTS``): ``T`` becomes ``(SELECT T.*, <subquery> AS cosydb_outer_n FROM T) AS T``
      (one level out of the subquery, now) and the subquery ``T.cosydb_outer_n``;
    - else each such column ``T.c`` carried one query in: a table of the query around the
      subquery, ``S``, becomes ``(SELECT S.*, T.c AS cosydb_outer_n FROM S) AS S`` and the column
      ``S.cosydb_outer_n`` (repeated as long as ``T`` is still further out).

    Both keep the rows: the value depends on the outer row only. A subquery that neither
    applies to (the query around it reads no table) is an error naming the column.

    Then the arguments of a correlated subquery's aggregates (``_aggregate_decorrelated``),
    which Spark reads from its own rows only: a subquery in them lifted into a derived table
    of the table it reads, an outer column carried into a table of the subquery."""
    helpers = iter(range(1, 1_000_000))
    for _ in range(10_000):
        try:
            scopes = list(traverse_scope(tree))
        except (SqlglotError, KeyError, AttributeError):  # what sqlglot cannot scope, Spark judges
            return
        found = next(
            ((scope, column, far) for scope in scopes for column, far in _far_columns(scope)),
            None,
        )
        if found is None:
            if any(_aggregate_decorrelated(scope, helpers) for scope in scopes):  # one, then scoped again
                continue
            return
        scope, column, far = found
        if not _lifted(scope, far, helpers) and not _carried(scope, column, helpers):
            raise CosyError(
                where,
                f"cannot run on spark: a subquery reads {column.sql()} from a query two or more levels out"
                " (Spark resolves an outer column one level out)",
            )
    raise CosyError(where, "cannot run on spark: its subqueries nest too deep to decorrelate")


def _aggregate_decorrelated(scope, helpers) -> bool:
    """Rewrite in place an aggregate of the query of ``scope`` whose argument Spark cannot
    compute where the query reads an outer row (False when there is none):

    - a correlated subquery in the argument of an aggregate of a correlated subquery
      (``(SELECT max((SELECT ... WHERE s.k = o.k)) FROM o WHERE o.j = T.j)``: Spark plans
      it, then fails at run time with ``Cannot evaluate expression: outer(k)``) is lifted
      into a derived table of the one table it reads, ``o`` (``_lifted``);
    - an outer column beside columns of the query's own tables in an aggregate's argument
      (``(SELECT sum(s.x - T.y) FROM s WHERE ...)``: Spark refuses an aggregate that mixes
      outer and local references) is carried into the table of the query it reads with
      them, ``s``: ``(SELECT s.*, T.y AS cosydb_outer_n FROM s) AS s`` and the column
      ``s.cosydb_outer_n``.

    Both keep the rows: a lifted subquery's value depends on its table's row only, a carried
    column's on the outer row only."""
    select = scope.expression
    if not isinstance(select, exp.Select):
        return False
    aggregates = [
        a
        for a in select.find_all(exp.AggFunc)
        if a.find_ancestor(exp.Select) is select and not a.find_ancestor(exp.Window)
    ]
    if not aggregates:
        return False
    if scope.scope_type == ScopeType.SUBQUERY and scope.external_columns:
        for child in scope.subquery_scopes:
            around = child.expression.parent.find_ancestor(exp.AggFunc)
            inside = any(around is a for a in aggregates)
            if child.external_columns and inside and _lifted(child, scope, helpers):
                return True
    if select.args.get("from_") is None:
        return False
    for aggregate in aggregates:
        columns = [
            c
            for c in aggregate.find_all(exp.Column)
            if c.find_ancestor(exp.Select) is select and not isinstance(c.this, exp.Star)
        ]
        outer = [
            c
            for c in columns
            if c.table
            and not c.args.get("db")
            and c.table not in scope.selected_sources
            and _owner(scope, c.table) is not None
        ]
        local = [c for c in columns if not c.table or c.table in scope.selected_sources]
        if not outer or not local:
            continue
        tables = [c.table for c in local if c.table] or [select.args["from_"].this.alias_or_name]
        source = next((s for s in (_source(scope, t) for t in tables) if s is not None), None)
        if source is None:
            continue
        table = source.alias_or_name
        for column in outer:  # the source as it now stands (a helper wraps it in a derived table)
            name = _helper_column(select, _source(scope, table), column.copy(), helpers, carried=True)
            column.replace(exp.column(name, table=table))
        return True
    return False


def _visible(scope) -> set:
    """The names of the tables whose columns Spark resolves in ``scope`` from outside it."""
    parent = scope.parent
    if parent is None:
        return set()
    if scope.scope_type in _TRANSPARENT:
        return _visible(parent)
    return set(parent.sources)


def _far_columns(scope):
    """``scope``'s outer columns that Spark does not resolve, each with the scope whose table
    it reads (a name no query around defines is no table: ``x.part.field``, a struct's)."""
    visible = _visible(scope)
    for column in scope.external_columns:
        if not column.table or column.args.get("db") or column.table in visible:
            continue
        further = _owner(scope, column.table)
        if further is not None:
            yield column, further


def _owner(scope, table: str):
    """The scope around ``scope`` (from its parent out) whose table ``table`` is."""
    further = scope.parent
    while further is not None and table not in further.sources:
        further = further.parent
    return further


def _lifted(scope, far, helpers) -> bool:
    """Lift the subquery of ``scope`` into a table of the query ``far`` (see
    ``_decorrelated``); False when it reads more than one outer table, or is no scalar
    subquery or EXISTS."""
    node = scope.expression.parent
    if scope.scope_type != ScopeType.SUBQUERY:
        return False
    if isinstance(node, exp.Subquery) and not isinstance(node.parent, (exp.In, exp.Lateral, exp.From, exp.Join)):
        lifted = node
    elif isinstance(node, exp.Exists):
        lifted = node
    else:
        return False
    tables = {c.table for c in scope.external_columns}
    if len(tables) != 1 or "" in tables or any(_owner(scope, t) is not far for t in tables):
        return False
    (table,) = tables
    source = _source(far, table)
    if source is None:
        return False
    name = _helper_column(far.expression, source, lifted, helpers)
    lifted.replace(exp.column(name, table=table))
    return True


def _carried(scope, column: exp.Column, helpers) -> bool:
    """Carry ``column`` one query in (see ``_decorrelated``): into a table of the query around
    the subquery whose scope is ``scope`` (or holds it, a derived table's); False when that
    query reads no table that can carry it."""
    inner = scope
    while inner.scope_type in _TRANSPARENT and inner.parent is not None:
        inner = inner.parent
    around = inner.parent
    if around is None or not isinstance(around.expression, exp.Select):
        return False
    # a name that a query between defines again would read that query's table
    shadowed = {n.alias_or_name for n in inner.expression.find_all(exp.Table, exp.Subquery)}
    select = around.expression
    for node in (
        [select.args["from_"].this, *(j.this for j in select.args.get("joins") or [])]
        if select.args.get("from_")
        else []
    ):
        table = node.alias_or_name
        source = None if table in shadowed else _source(around, table)
        if source is not None:
            name = _helper_column(select, source, column.copy(), helpers, carried=True)
            column.replace(exp.column(name, table=table))
            return True
    return False


def _source(scope, table: str):
    """The table ``table`` of the query of ``scope`` as it stands in its FROM or a JOIN, when it
    can be read through a derived table (a table or a subquery, neither LATERAL nor UNNEST)."""
    select = scope.expression
    if not isinstance(select, exp.Select) or select.args.get("from_") is None:
        return None
    for node in [select.args["from_"].this, *(j.this for j in select.args.get("joins") or [])]:
        if node.alias_or_name == table and isinstance(node, (exp.Table, exp.Subquery)):
            return node
    return None


def _helper_column(
    select: exp.Select, source: exp.Expression, value: exp.Expression, helpers, carried: bool = False
) -> str:
    """The helper column of ``source`` (a table of ``select``) that gives ``value`` per row,
    kept out of ``select``'s ``*`` (``_added``)."""
    name = _added(source, value, helpers, carried)
    _hide(select, source.alias_or_name, name)
    return name


def _added(source: exp.Expression, value: exp.Expression, helpers, carried: bool) -> str:
    """The helper column that gives ``value`` per row of ``source``: ``source`` read through a
    derived table that adds it (the one an earlier helper made, or one around it when
    ``value`` reads a helper column of that one). A column ``carried`` from an outer query
    (``_carried``) is added in a derived table of its own around the others, and a value of
    the row alone (``_lifted``) below it: Spark then computes that value once per row, not
    once per row of the outer query."""
    alias = source.alias_or_name
    read = {c.name for c in value.find_all(exp.Column)}
    outer = source.meta.get(_OUTER)
    key = value.sql("duckdb")
    if outer is not None and key in outer["known"]:
        return outer["known"][key]
    if outer is not None and outer["carried"] and not carried and not read & outer["own"]:
        name = outer["known"][key] = _added(source.this.args["from_"].this, value, helpers, False)
        return name
    if outer is None or read & outer["own"] or outer["carried"] != carried:
        inner = source.copy()
        inner.set("alias", exp.TableAlias(this=exp.to_identifier(alias)))
        wrapper = exp.select(exp.Column(this=exp.Star(), table=exp.to_identifier(alias))).from_(inner).subquery(alias)
        wrapper.meta[_OUTER] = {"known": dict(outer["known"]) if outer else {}, "own": set(), "carried": carried}
        source.replace(wrapper)
        source = wrapper
    outer = source.meta[_OUTER]
    name = outer["known"][key] = f"{_OUTER}_{next(helpers)}"
    outer["own"].add(name)
    source.this.select(exp.alias_(value, name), copy=False)
    return name


def _ieee_divisions(tree: exp.Expression) -> exp.Expression:
    """``tree`` with each ``a / b`` divided as DuckDB divides, by IEEE 754 (``x / 0`` is
    +-inf, ``0 / 0`` NaN), where Spark gives NULL: ``CASE WHEN b = 0 THEN a * inf ELSE a / b
    END`` (a zero divisor's sign is not kept: ``1 / -0.0`` is +inf)."""
    infinity = exp.cast(exp.Literal.string("Infinity"), "DOUBLE")
    for node in reversed(list(tree.find_all(exp.Div, bfs=False))):  # inner divisions first
        zero = exp.EQ(this=node.expression.copy(), expression=exp.Literal.number(0))
        ieee = exp.Mul(this=exp.cast(node.this.copy(), "DOUBLE"), expression=infinity.copy())
        replacement = exp.Paren(this=exp.Case(ifs=[exp.If(this=zero, true=ieee)], default=node.copy()))
        if node is tree:
            return replacement
        node.replace(replacement)
    return tree


#: Aggregates whose value over a window frame does not depend on the order of its rows.
_ORDER_FREE_AGGREGATES = (exp.Min, exp.Max, exp.Sum, exp.Count, exp.Avg, exp.LogicalAnd, exp.LogicalOr, exp.CountIf)


def _growing_frames(tree: exp.Expression) -> exp.Expression:
    """``tree`` with each order-free aggregate over a frame that ends at UNBOUNDED FOLLOWING
    (``min(x) OVER (ORDER BY k ROWS BETWEEN CURRENT ROW AND UNBOUNDED FOLLOWING)``) over
    the mirrored frame in the reverse order (``ORDER BY k DESC NULLS FIRST ROWS BETWEEN
    UNBOUNDED PRECEDING AND CURRENT ROW``): the same rows, but Spark computes a frame
    that shrinks with each row again for every row (n^2 in a partition's rows), one that
    grows in one pass."""
    mirrored = {"following": "preceding", "preceding": "following", "": None}
    for window in tree.find_all(exp.Window):
        spec, order = window.args.get("spec"), window.args.get("order")
        if (
            spec is None
            or order is None
            or not _to_unbounded_following(spec)
            or not isinstance(window.this, _ORDER_FREE_AGGREGATES)
        ):
            continue
        for ordered in order.expressions:
            ordered.set("desc", not ordered.args.get("desc"))
            ordered.set("nulls_first", not ordered.args.get("nulls_first"))
        start, side = spec.args.get("start"), str(spec.args.get("start_side") or "").lower()
        spec.set("start", "UNBOUNDED")
        spec.set("start_side", "preceding")
        spec.set("end", start)
        spec.set("end_side", mirrored[side])
    return tree


def _to_unbounded_following(spec: exp.WindowSpec) -> bool:
    """Whether the frame ``spec`` ends at UNBOUNDED FOLLOWING and starts after UNBOUNDED
    PRECEDING (sqlglot keeps the keywords' case as written)."""

    def word(key: str) -> str:
        return str(spec.args.get(key) or "").upper()

    return (word("end"), word("end_side")) == ("UNBOUNDED", "FOLLOWING") and word("start") != "UNBOUNDED"


def _rewrite(node: exp.Expression, where, macros: dict) -> exp.Expression:
    if isinstance(node, exp.Union) and node.args.get("by_name"):
        raise CosyError(where, "UNION ... BY NAME has no Spark form: name the columns of both sides")
    if isinstance(node, exp.DataType) and node.this == exp.DataType.Type.UBIGINT:
        return exp.DataType.build("DECIMAL(20,0)")
    if isinstance(node, exp.Anonymous) and str(node.this).lower() in macros:
        parameters, body = macros[str(node.this).lower()]
        arguments = dict(zip(parameters, node.expressions))
        return exp.Paren(
            this=body.copy().transform(
                lambda n: (
                    exp.Paren(this=arguments[n.name].copy())
                    if isinstance(n, exp.Column) and not n.table and n.name in arguments
                    else n
                ),
                copy=False,  # the body's copy, made above
            )
        )
    if isinstance(node, exp.Filter) and isinstance(node.this, exp.ArrayAgg):
        return _list_aggregate(node.this, node.expression, where, macros)
    if isinstance(node, exp.ArrayAgg):
        return _list_aggregate(node, None, where, macros)
    if isinstance(node, exp.Filter) and isinstance(node.this, exp.Sum) and isinstance(node.this.this, exp.Order):
        return _ordered_sum(node.this, node.expression, where, macros)
    if isinstance(node, exp.Sum) and isinstance(node.this, exp.Order):
        return _ordered_sum(node, None, where, macros)
    if isinstance(node, exp.Bracket) and len(node.expressions) == 1:
        index = node.expressions[0]
        if isinstance(index, exp.Slice):  # DuckDB: 1-based, both ends included
            start = index.this or exp.Literal.number(1)
            end = index.expression or exp.func("size", node.this.copy())
            length = exp.Add(this=exp.Sub(this=end.copy(), expression=start.copy()), expression=exp.Literal.number(1))
            return exp.Anonymous(this="slice", expressions=[node.this, _int(start), _int(length)])
        if isinstance(index, exp.Literal) and index.is_int:  # sqlglot keeps a constant index 0-based
            return exp.Anonymous(this="element_at", expressions=[node.this, exp.Literal.number(int(index.name) + 1)])
        if not (isinstance(index, exp.Literal) and index.is_string):  # a list's element, 1-based
            return exp.Anonymous(this="element_at", expressions=[node.this, _int(index)])
    if isinstance(node, exp.Window) and isinstance(node.this, exp.RowNumber) and not node.args.get("order"):
        # Spark numbers rows only in an order: any order, as DuckDB's OVER ()
        node.set("order", exp.Order(expressions=[exp.Ordered(this=exp.func("monotonically_increasing_id"))]))
    if isinstance(node, exp.JSONObject):  # json_object(k, v, ...): nested JSON values stay JSON
        fields = []
        for pair in node.expressions:
            value = pair.expression
            if isinstance(value, exp.Anonymous) and str(value.this).lower() == "to_json":
                value = value.expressions[0]
            fields += [pair.this, value.transform(lambda n: _rewrite(n, where, macros))]  # not revisited
        return exp.Anonymous(this="to_json", expressions=[exp.Anonymous(this="named_struct", expressions=fields)])
    if isinstance(node, exp.Anonymous) and str(node.this).lower() == "json_merge_patch":
        # two JSON objects' members, those of the second added (keys of only one of them)
        first, second = (e.transform(lambda n: _rewrite(n, where, macros)) for e in node.expressions)
        members = exp.Anonymous(
            this="substr",
            expressions=[
                first.copy(),
                exp.Literal.number(1),
                exp.Sub(this=exp.Length(this=first.copy()), expression=exp.Literal.number(1)),
            ],
        )
        joined = exp.Anonymous(
            this="concat",
            expressions=[
                members,
                exp.Literal.string(","),
                exp.Anonymous(this="substr", expressions=[second.copy(), exp.Literal.number(2)]),
            ],
        )
        return exp.Case(
            ifs=[exp.If(this=exp.EQ(this=first.copy(), expression=exp.Literal.string("{}")), true=second.copy())],
            default=joined,
        )
    if isinstance(node, exp.Anonymous) and str(node.this).lower() == "isfinite":  # NULL for NULL
        value = node.expressions[0].transform(lambda n: _rewrite(n, where, macros))
        return sqlglot.parse_one(
            f"(NOT isnan({value.sql('spark')}) AND abs({value.sql('spark')}) < double('inf'))", read="spark"
        )
    if isinstance(node, exp.Anonymous) and str(node.this).lower() == "hash":
        return exp.Anonymous(this="xxhash64", expressions=node.expressions)
    if isinstance(node, exp.Select) and node.is_star and node.args.get("qualify"):
        # SELECT *, w AS x ... QUALIFY c as SELECT * FROM (SELECT *, w AS x ...) WHERE c: sqlglot's
        # own form selects x twice beside the star (a column Spark then finds ambiguous)
        condition = node.args["qualify"].pop().this
        if condition.find(exp.Window):
            raise CosyError(
                where, "QUALIFY with a window function beside SELECT * has no Spark form: name it in the SELECT"
            )
        inner = node.transform(lambda n: _rewrite(n, where, macros))
        return exp.select(exp.Star()).from_(inner.subquery("_t")).where(condition)
    if isinstance(node, exp.Select):
        _inline_named_windows(node)
        for join in list(node.args.get("joins") or []):
            if (join.args.get("method") or "").upper() == "ASOF" and not _asof_as_key_join(node, join, where):
                _asof_as_interval_join(node, join, where)
    return node


def _asof_parts(join: exp.Join, where) -> tuple:
    """An ASOF join's right alias, left key, right key, operator (left OP right) and
    equalities (left expression, right expression)."""
    right = join.this
    alias = right.alias_or_name
    conjuncts = list(join.args["on"].flatten()) if isinstance(join.args["on"], exp.And) else [join.args["on"]]
    inequalities = [c for c in conjuncts if type(c) in _FLIPPED]
    if len(inequalities) != 1:
        raise CosyError(where, "an ASOF join needs exactly one inequality (>, >=, <, <=) in its ON")
    inequality = inequalities[0]

    def on_right(e: exp.Expression) -> bool:
        tables = {c.table for c in e.find_all(exp.Column)}
        return tables == {alias}

    if on_right(inequality.expression):
        left_key, right_key, op = inequality.this, inequality.expression, type(inequality)
    elif on_right(inequality.this):
        left_key, right_key, op = inequality.expression, inequality.this, _FLIPPED[type(inequality)]
    else:
        raise CosyError(where, f"the ASOF inequality of {alias} must compare a column of {alias}")
    pairs = []
    for c in conjuncts:
        if isinstance(c, exp.EQ):
            if on_right(c.expression):
                pairs.append((c.this, c.expression))
            elif on_right(c.this):
                pairs.append((c.expression, c.this))
            else:
                raise CosyError(where, f"an ASOF equality must compare a column of {alias}")
        elif c is not inequality:
            raise CosyError(where, "an ASOF join's ON holds only equalities and one inequality")
    return alias, left_key, right_key, op, pairs


def _asof_as_key_join(select: exp.Select, join: exp.Join, where) -> bool:
    """Rewrite ``join`` (ASOF) of ``select`` in place as two equi-joins, when its left key
    and equalities read one table of the left side (else False: nothing rewritten).

    The right key each left row matches depends only on its (equalities, key): the left
    side's distinct (equalities, key) and the right side's (equalities, key), sorted in one
    window per equalities, give it as the greatest right key so far (``>=``, ``>``) or the
    least from there on (``<=``, ``<``); equal keys are ordered so that ``>=`` and ``<=``
    match them and ``>`` and ``<`` do not. The left rows join that table on (equalities,
    key), then the right rows on (equalities, matched key), one right row per key (as the
    ASOF join, which matches one). Sorting instead of the interval join's pairs: the cost
    grows as n log n in a group's rows, not n^2."""
    alias, left_key, right_key, op, pairs = _asof_parts(join, where)
    left_tables = {c.table for e in [left_key, *(left for left, _ in pairs)] for c in e.find_all(exp.Column)}
    if len(left_tables) != 1 or "" in left_tables:
        return False
    (left_alias,) = left_tables
    sources = [select.args["from_"].this, *(j.this for j in select.args.get("joins") or [] if j is not join)]
    source = next(
        (t for t in sources if t.alias_or_name == left_alias and isinstance(t, (exp.Table, exp.Subquery))), None
    )
    if source is None:
        return False
    prefix = f"cosydb_asof_{alias}"
    groups = [f"{prefix}_e{i}" for i in range(len(pairs))]
    key, matched = f"{prefix}_t", f"{prefix}_k"
    left_first = op in (exp.GT, exp.LTE)  # at equal keys: the left row sorts before the right ones
    if op in (exp.GTE, exp.GT):
        nearest, frame = "max", "ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW"
    else:
        nearest, frame = "min", "ROWS BETWEEN CURRENT ROW AND UNBOUNDED FOLLOWING"
    lefts = ", ".join(
        [*(f"{left.sql('duckdb')} AS {g}" for (left, _), g in zip(pairs, groups)), f"{left_key.sql('duckdb')} AS {key}"]
    )
    rights = ", ".join(
        [*(f"{r.sql('duckdb')} AS {g}" for (_, r), g in zip(pairs, groups)), f"{right_key.sql('duckdb')} AS {key}"]
    )
    right_source = join.this.copy()
    right_source.set("alias", exp.TableAlias(this=exp.to_identifier(alias)))
    left_source = source.copy()
    left_source.set("alias", exp.TableAlias(this=exp.to_identifier(left_alias)))
    partition = f"PARTITION BY {', '.join(groups)} " if groups else ""
    keys = sqlglot.parse_one(
        f"""SELECT {", ".join(groups + [key])}, {nearest}(CASE WHEN side = 1 THEN {key} END) OVER (
                {partition}ORDER BY {key}, side {"ASC" if left_first else "DESC"} {frame}) AS {matched}
            FROM (SELECT DISTINCT {lefts}, 0 AS side FROM {left_source.sql("duckdb")}
                  UNION ALL SELECT {rights}, 1 AS side FROM {right_source.sql("duckdb")}) AS keys
            QUALIFY side = 0""",
        read="duckdb",
    )
    one_per_key = ", ".join([*(r.sql("duckdb") for _, r in pairs), right_key.sql("duckdb")])
    rows = sqlglot.parse_one(
        f"""SELECT * EXCLUDE ({prefix}_n) FROM (
                SELECT *, row_number() OVER (
                    PARTITION BY {one_per_key} ORDER BY {right_key.sql("duckdb")}) AS {prefix}_n
                FROM {right_source.sql("duckdb")}) AS {alias}
            WHERE {prefix}_n = 1""",
        read="duckdb",
    )
    side = join.args.get("side")
    on_keys = exp.and_(
        *(exp.EQ(this=exp.column(g, table=prefix), expression=left.copy()) for (left, _), g in zip(pairs, groups)),
        exp.EQ(this=exp.column(key, table=prefix), expression=left_key.copy()),
    )
    on_rows = exp.and_(
        *(exp.EQ(this=r.copy(), expression=exp.column(g, table=prefix)) for (_, r), g in zip(pairs, groups)),
        exp.EQ(this=right_key.copy(), expression=exp.column(matched, table=prefix)),
    )
    joins = select.args["joins"]
    position = joins.index(join)
    joins[position : position + 1] = [
        exp.Join(this=keys.subquery(prefix), side=side, on=on_keys),
        exp.Join(this=rows.subquery(alias), side=side, on=on_rows),
    ]
    select.set("joins", joins)
    for helper in [*groups, key, matched]:
        _hide(select, prefix, helper)
    return True


def _asof_as_interval_join(select: exp.Select, join: exp.Join, where) -> None:
    """Rewrite ``join`` (ASOF) of ``select`` in place as a join on key intervals.

    DuckDB's ASOF join matches each left row with the right row of equal ``equalities``
    whose key is the nearest one the inequality admits (``left >= r.k``: the greatest
    ``r.k`` at most ``left``). Each right row answers the left values between its key and
    the next (``>=``, ``>``: ``lead``) or previous (``<=``, ``<``: ``lag``) key of its
    group; of right rows with equal keys only the last in key order has a non-empty interval.
    """
    right = join.this
    alias, left_key, right_key, op, pairs = _asof_parts(join, where)
    groups = [_unqualified(r) for _, r in pairs]
    key = _unqualified(right_key)
    following = op in (exp.GT, exp.GTE)
    helper = f"{_NEXT if following else _PREVIOUS}_{alias}"
    window = exp.Window(
        this=exp.Lead(this=key.copy()) if following else exp.Lag(this=key.copy()),
        partition_by=[g.copy() for g in groups],
        order=exp.Order(expressions=[exp.Ordered(this=key.copy())]),
    )
    if isinstance(right, exp.Subquery):
        source = exp.alias_(right.this.subquery(), "cosydb_asof_right")
    else:
        source = right.copy()
        source.set("alias", None)
    bounded = (
        exp.select(exp.Star(), exp.alias_(window, helper))
        .from_(source)
        .where(exp.Not(this=exp.Is(this=key.copy(), expression=exp.Null())))
        .subquery(alias)
    )
    bound = exp.column(helper, table=alias)
    beyond = {exp.GTE: exp.LT, exp.GT: exp.LTE, exp.LTE: exp.GT, exp.LT: exp.GTE}[op]
    within = exp.or_(exp.Is(this=bound.copy(), expression=exp.Null()), beyond(this=left_key.copy(), expression=bound))
    join.set("this", bounded)
    join.set("method", None)
    join.set("on", exp.and_(join.args["on"], exp.Paren(this=within)))
    _hide(select, alias, helper)


def _list_aggregate(aggregate: exp.ArrayAgg, condition, where, macros: dict) -> exp.Expression:
    """DuckDB's ``list(x [ORDER BY ...]) [FILTER (WHERE ...)]``: Spark's ``collect_list`` drops
    NULLs and keeps no order, so it collects structs (never NULL) and sorts them by the
    ORDER BY keys with a comparator that keeps each key's direction and NULL order."""

    def spark(e: exp.Expression) -> str:
        return e.transform(lambda n: _rewrite(n, where, macros)).sql(dialect="spark")

    ordered = aggregate.this if isinstance(aggregate.this, exp.Order) else None
    value = ordered.this if ordered else aggregate.this
    distinct = isinstance(value, exp.Distinct)
    if distinct:
        value = value.expressions[0]
    keys = list(ordered.expressions) if ordered else []
    fields = ", ".join([f"'k{i}', {spark(k.this)}" for i, k in enumerate(keys)] + [f"'v', {spark(value)}"])
    collected = f"collect_list(named_struct({fields}))"
    if condition is not None:
        collected += f" FILTER ({spark(condition)})"
    if keys:
        comparison = "0"
        for i, k in reversed(list(enumerate(keys))):
            less, greater = ("1", "-1") if k.args.get("desc") else ("-1", "1")
            null_left = "-1" if k.args.get("nulls_first") else "1"
            null_right = "1" if k.args.get("nulls_first") else "-1"
            comparison = (
                f"CASE WHEN l.k{i} IS NULL AND r.k{i} IS NULL THEN {comparison} WHEN l.k{i} IS NULL THEN {null_left} "
                f"WHEN r.k{i} IS NULL THEN {null_right} WHEN l.k{i} < r.k{i} THEN {less} "
                f"WHEN l.k{i} > r.k{i} THEN {greater} ELSE {comparison} END"
            )
        collected = f"array_sort({collected}, (l, r) -> {comparison})"
    values = f"transform({collected}, e -> e.v)"
    return sqlglot.parse_one(f"array_distinct({values})" if distinct else values, read="spark")


def _ordered_sum(aggregate: exp.Sum, condition, where, macros: dict) -> exp.Expression:
    """DuckDB's ``sum(x ORDER BY ...)`` (a sum in a fixed order, the same to the last bit in
    every run): the values collected in that order (``_list_aggregate``) and added one by
    one; NULL when there is none, as ``sum``."""
    values = _list_aggregate(exp.ArrayAgg(this=aggregate.this.copy()), condition, where, macros).sql(dialect="spark")
    present = f"filter({values}, v -> v IS NOT NULL)"
    return sqlglot.parse_one(
        f"aggregate(slice({present}, 2, greatest(size({present}) - 1, 0)), element_at({present}, 1), (s, v) -> s + v)",
        read="spark",
    )


def _inline_named_windows(select: exp.Select) -> None:
    """Spark cannot refine a named window (``OVER (w ROWS ...)``): every window of ``select``
    that names one of its WINDOW clause's takes its definition."""
    named = {str(w.this): w for w in select.args.get("windows") or []}
    if not named:
        return
    for window in select.find_all(exp.Window):
        name = window.args.get("alias")
        if window.args.get("over") and name is not None and str(name) in named:
            definition = named[str(name)]
            for part in ("partition_by", "order"):
                if definition.args.get(part):
                    window.set(
                        part,
                        definition.args[part].copy() if part == "order" else [e.copy() for e in definition.args[part]],
                    )
            window.set("alias", None)
    select.set("windows", None)


def _int(index: exp.Expression) -> exp.Expression:
    """A list index or length as Spark's INT (element_at and slice take no BIGINT)."""
    if isinstance(index, exp.Literal):
        return index
    return exp.Cast(this=index, to=exp.DataType.build("INT"))


def _unqualified(e: exp.Expression) -> exp.Expression:
    return e.copy().transform(lambda n: exp.column(n.name) if isinstance(n, exp.Column) else n)


def _hide(select: exp.Select, alias: str, helper: str) -> None:
    """Keep ``helper`` out of the ``*`` and ``alias.*`` projections of ``select``."""
    for projection in select.expressions:
        star = projection if isinstance(projection, exp.Star) else None
        if isinstance(projection, exp.Column) and isinstance(projection.this, exp.Star) and projection.table == alias:
            star = projection.this
        if star is not None:
            hidden = list(star.args.get("except_") or [])
            star.set("except_", [*hidden, exp.column(helper)])
