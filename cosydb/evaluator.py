"""Evaluate the property catalog on one experiment and store ``property_results``.

Every property and pattern is rendered with Jinja (``ref()`` and the macros
of ``templates/``; ``cosydb.templating``, as the objects of ``sql/``), ordered
by its ``ref()`` dependencies and evaluated once,
general before specialised, into a table ``prop_<name>`` that the
specialised ones read: a pattern shared by several properties runs once.
On a database's connection the tables are in memory, beside the attached views
file, and entries whose inputs are ready are evaluated side by side on its
cursors; elsewhere they are temporary tables, evaluated one at a time.
A ``ref()`` to a table or view of ``sql/`` reads only the experiment under
evaluation; a view (computed on every read, e.g. ``mpi_summary``) is computed
once per report into a table ``view_<name>`` shared by every entry.
Values (experiment, thresholds, focus region, ...) are bound as ``$p_name``
parameters, never pasted into the SQL text.
"""

from __future__ import annotations

import concurrent.futures
import contextlib
import datetime as dt
import functools
import hashlib
import os
import re
import time
from collections.abc import Callable, Container
from dataclasses import dataclass, field
from pathlib import Path

import duckdb
import jinja2
import pyarrow as pa
import pyarrow.parquet as pq

from . import catalog as catalog_mod
from . import database, interrupts, resources, sqlviews, tables, templating
from .catalog import RESULT_COLUMNS, Property
from .errors import CosyError

_PARAM = re.compile(r"\$(p_[a-z0-9_]+)")


@dataclass
class Rendered:
    prop: Property
    sql: str
    refs: list[str]
    views: list[str]
    baseline_views: list[str] = field(default_factory=list)  # the plain views it reads of the baseline
    engine_sql: str | None = None  # rendered for another engine than DuckDB (its dispatched macros)
    tables: list[str] = field(default_factory=list)  # the other tables and views of sql/ its ref() calls read


def table_columns(con: duckdb.DuckDBPyConnection, name: str) -> dict[str, str]:
    """The columns of table ``name`` on ``con`` with their DuckDB types."""
    relation = con.table(name)  # bound, not run: a tenth of DESCRIBE's time
    return dict(zip(relation.columns, map(str, relation.types)))


class DuckDBTables:
    """Where an evaluation keeps its rows: tables of DuckDB on ``con``, temporary ones unless
    ``con`` is a database's read-only connection (``database.shares_tables``: in memory,
    seen by its cursors, which evaluate entries side by side). (Another engine implements
    the same six methods: ``cosydb.spark.SparkTables``.) ``name``: the engine, which
    templates read as ``engine`` to pick their implementation of a macro."""

    name = "duckdb"

    def __init__(self, con: duckdb.DuckDBPyConnection, shared: bool | None = None):
        self.con = con
        self.shared = database.shares_tables(con) if shared is None else shared

    def create(self, name: str, sql: str, params: dict, where, engine_sql: str | None = None) -> None:
        """Table ``name`` holding the rows of ``sql`` (``$p_`` parameters: ``params``);
        ``engine_sql``: the same rendered for this engine (DuckDB: ``sql`` itself)."""
        kind = "TABLE" if self.shared else "TEMP TABLE"
        statement = f"CREATE OR REPLACE {kind} {name} AS\n{sql}"
        try:
            resources.growing(self.con, lambda: self.con.execute(statement, params), where)
        except duckdb.Error as error:
            raise CosyError(where, f"evaluation failed: {resources.error_text(error)}") from None

    def columns(self, name: str) -> dict[str, str]:
        """The columns of table ``name`` with their DuckDB types."""
        return table_columns(self.con, name)

    def drop(self, name: str) -> None:
        self.con.execute(f"DROP TABLE IF EXISTS {name}")

    def arrow(self, sql: str, params: dict) -> pa.Table:
        return self.con.execute(sql, params).to_arrow_table()

    @contextlib.contextmanager
    def workers(self, events: int):
        """Where entries are evaluated: a cursor each for up to ``AT_ONCE`` entries side by
        side (as many as DuckDB's threads) where ``con`` shares its tables and the
        experiment holds fewer than ``SIDE_BY_SIDE_BELOW_EVENTS`` events; else ``self``."""
        (threads,) = self.con.execute("SELECT current_setting('threads')").fetchone()
        n = min(AT_ONCE, int(threads)) if self.shared and events < SIDE_BY_SIDE_BELOW_EVENTS else 1
        if n == 1:
            yield [self]
            return
        with database.cursors(self.con, n) as cursors:
            yield [type(self)(cursor, shared=True) for cursor in cursors]  # a subclass's hooks on each

    def release(self) -> None:
        """Nothing to free: the tables go with the connection."""


#: The most entries evaluated side by side (on two cores: two).
AT_ONCE = 4
#: Entries are evaluated side by side on experiments of fewer events, whose entries take
#: milliseconds, mostly DuckDB planning and binding them on one thread: hpccg-8-small's
#: report (102k events) took 1.10-1.36 s against 1.51-1.64 s one at a time. On more, each
#: entry's query keeps DuckDB's threads busy itself and two at once hold two working sets:
#: 10M synthetic events 9.9-11.0 s against 10.3-11.1 s, peak RSS 991-1,253 MiB against 965-1,013.
SIDE_BY_SIDE_BELOW_EVENTS = 1_000_000


def _environment(catalog: dict[str, Property] | None = None) -> jinja2.Environment:
    """Jinja for property files and ad-hoc queries: the template directories of the
    catalog's property roots (built-in and plug-ins) can be imported."""
    return templating.environment(
        sorted({str(p.root) for p in (catalog or {}).values()} | {str(catalog_mod.builtin_dir())})
    )


def _referrer(
    catalog: dict[str, Property], sql_objects: set[str], views: set[str], where, entry_rows=None, query=False
) -> tuple:
    """The ``ref()`` of a template and the lists it fills: a property or pattern reads its
    rows (the temporary table ``_rows(name)``, or ``entry_rows(name)``; appended to refs), a
    view of ``views`` the table ``view_<name>`` (appended to the views used), another table
    or view of sql/ only the experiment ``$p_experiment_id``. ``where`` names the template
    in errors. A catalog entry reads the loaded tables and the model, never the report
    layer above it (reports/, the stored results); an ad-hoc ``query`` reads any. The lists:
    the entries read, the plain views read, the other tables and views of sql/ read."""
    refs: list[str] = []
    used_views: list[str] = []
    read: list[str] = []

    def ref(name: str) -> str:
        if name in catalog:
            if catalog[name].kind == "category":
                raise CosyError(where, f"ref('{name}') names a category, which has no rows")
            refs.append(name)
            return (entry_rows or _rows)(name)
        readable = sqlviews.READS["property"]
        if name in sql_objects and not query and (layer := sqlviews.layer_of(name)) not in readable:
            raise CosyError(
                where, f"ref('{name}') reads the {layer} layer: a property reads only {', '.join(readable)}"
            )
        if name in views:
            used_views.append(name)
            return _view_copy(name)
        if name in sql_objects:
            read.append(name)
            return _of_experiment(name)
        raise CosyError(where, f"ref('{name}') names no property, pattern, table or view")

    return ref, refs, used_views, read


def render(
    prop: Property,
    catalog: dict[str, Property],
    sql_objects: set[str],
    environment: jinja2.Environment | None = None,
    views: set[str] = frozenset(),
    unmet: Container[str] = frozenset(),
    entry_rows=None,
    engine_name: str = "duckdb",
) -> Rendered:
    """The SQL of one property with its ``ref()`` calls resolved (a ref to an entry reads
    the table of its rows; ``entry_rows(name)`` names it otherwise); a ref to one of ``views``
    reads the temporary table ``view_<name>`` that ``evaluate`` fills. ``has('trace')``
    in a template is false when the requirement is in ``unmet`` (e.g. on a profile);
    ``baseline_ref('x')`` reads table or view x of the baseline experiment (a view of
    ``views``: the temporary table ``baseline_view_<name>``);
    ``catalog_tree(roots)`` lists the catalog entries under ``roots`` in tree order (name,
    parent, unit, kind, evaluable: its requirements are met, sums_children: a category
    that sums its sub-metrics, waiting: a wait state that is time waiting for a partner
    and not part of another, whose time holds its own)."""
    ref, refs, used_views, read = _referrer(catalog, sql_objects, views, prop.path, entry_rows)
    baseline_views: list[str] = []

    def baseline_ref(name: str) -> str:
        if name not in sql_objects:
            raise CosyError(prop.path, f"baseline_ref('{name}') names no table or view of sql/")
        if name in views:
            baseline_views.append(name)
            return _baseline_view_copy(name)
        read.append(name)
        return _of_experiment(name, "p_baseline_id")

    sql = templating.render(
        prop.body,
        prop.path,
        environment or _environment(catalog),
        ref=ref,
        baseline_ref=baseline_ref,
        has=lambda requirement: requirement not in unmet,
        engine=engine_name,
        catalog_tree=lambda roots: _catalog_tree(catalog, roots, unmet, prop.path),
    )
    return Rendered(
        prop,
        sql,
        list(dict.fromkeys(refs)),
        list(dict.fromkeys(used_views)),
        list(dict.fromkeys(baseline_views)),
        tables=list(dict.fromkeys(read)),
    )


def _catalog_tree(catalog: dict[str, Property], roots: list[str], unmet: Container[str], where) -> list[dict]:
    unknown = [name for name in roots if name not in catalog]
    if unknown:
        raise CosyError(where, f"catalog_tree(): no entry {', '.join(unknown)}")
    return [
        dict(
            name=p.name,
            parent=p.parent,
            unit=p.unit,
            kind=p.kind,
            depth=depth,
            evaluable=not any(r in unmet for r in p.requires),
            sums_children=p.sums_children,
            waiting=_waiting(p) and not any(_waiting(catalog[a]) for a in catalog_mod.ancestors(catalog, p.name)),
        )
        for p, depth in catalog_mod.tree_order(catalog, roots)
    ]


def _waiting(prop: Property) -> bool:
    """A wait state that waits for a partner (not a completion)."""
    return prop.wait_state and not prop.wait_completion


def plan(
    catalog: dict[str, Property],
    sql_objects: set[str],
    selected: list[str] | None = None,
    views: set[str] = frozenset(),
    unmet: Container[str] = frozenset(),
    engine_name: str = "duckdb",
) -> list[Rendered]:
    """The properties to evaluate (``selected`` and what they need, default all but the patterns
    evaluated on demand), parents first; an entry with a requirement in ``unmet`` is listed
    unrendered, without its dependencies."""
    rendered: dict[str, Rendered] = {}
    environment = _environment(catalog)

    def dependencies(name: str) -> list[str]:
        if name not in rendered:
            if any(r in unmet for r in catalog[name].requires):  # not evaluable: neither rendered nor its dependencies
                rendered[name] = Rendered(catalog[name], "", [], [])
            else:
                rendered[name] = render(catalog[name], catalog, sql_objects, environment, views, unmet)
                if engine_name != "duckdb":
                    rendered[name].engine_sql = render(
                        catalog[name], catalog, sql_objects, environment, views, unmet, None, engine_name
                    ).sql
        return rendered[name].refs

    wanted = selected or sorted(name for name, prop in catalog.items() if not prop.on_demand)
    for name in wanted:
        if name not in catalog:
            raise CosyError(name, "no such property (see `cosydb properties`)")
    names = [name for name in wanted if catalog[name].kind != "category"]
    order = templating.dependency_order(names, dependencies, lambda name: catalog[name].path)
    return [rendered[name] for name in order]


class Requirements:
    """What one experiment lacks of ``catalog.REQUIREMENTS`` (``name in unmet``) and its metric
    names (``counters``), each asked of the database when first needed: a query each (a
    millisecond or more), and most selections need none of them."""

    def __init__(self, con: duckdb.DuckDBPyConnection, experiment_id: int, baseline_id: int | None = None):
        self.con, self.values = con, {"id": experiment_id, "baseline": baseline_id}
        self.met: dict[str, bool] = {}

    def __contains__(self, name: str) -> bool:
        """Whether requirement ``name`` is unmet."""
        if name not in self.met:
            sql = catalog_mod.REQUIREMENTS[name][0]
            params = {k: v for k, v in self.values.items() if f"${k}" in sql}
            self.met[name] = bool(self.con.execute(sql, params).fetchone()[0])
        return not self.met[name]

    @staticmethod
    def status(name: str) -> str:
        """The status text of an entry whose requirement ``name`` is unmet."""
        return catalog_mod.REQUIREMENTS[name][1]

    @functools.cached_property
    def counters(self) -> set[str]:
        """The experiment's metric names."""
        sql = "SELECT DISTINCT name FROM metrics WHERE experiment_id = ?"
        return {name for (name,) in self.con.execute(sql, [self.values["id"]]).fetchall()}


def planned(
    con: duckdb.DuckDBPyConnection,
    catalog: dict[str, Property],
    experiment_id: int,
    selected: list[str] | None = None,
    baseline_id: int | None = None,
) -> list[str]:
    """The entries ``evaluate`` gives a status (evaluated or not evaluable) for ``selected``
    (default: the whole catalog) on this experiment: those selected and what they read."""
    unmet = Requirements(con, experiment_id, baseline_id)
    items = plan(catalog, database.object_names(), selected, database.view_names(), unmet)
    return [item.prop.name for item in items]


#: cosydb's own files that decide an evaluation (its loaders do not; sql/, reports/ and
#: properties/ are fingerprinted as such); the directories of its other subpackages when installed.
_CODE_FILES = ("*.py", "*.lark", "*.asl", "*.yaml")
_OTHER_PACKAGES = {"sql", "reports", "properties", "loaders", "fixtures", "__pycache__"}


@functools.cache
def code_fingerprint() -> str:
    """SHA-256 of what decides the rows of an evaluation besides the catalog: cosydb's code
    (its Python, grammar and ASL files), the objects of sql/ and reports/ and DuckDB's version."""
    package = Path(__file__).resolve().parent
    digest = hashlib.sha256(f"{sqlviews.fingerprint()}\0{duckdb.__version__}\0".encode())
    for path in sorted(p for pattern in _CODE_FILES for p in package.rglob(pattern)):
        relative = path.relative_to(package)
        if not _OTHER_PACKAGES & set(relative.parts[:-1]):
            digest.update(f"{relative}\0".encode() + path.read_bytes() + b"\0")
    return digest.hexdigest()


def evaluate(
    con: duckdb.DuckDBPyConnection,
    catalog: dict[str, Property],
    experiment_id: int,
    values: dict | None = None,
    selected: list[str] | None = None,
    baseline_id: int | None = None,
    keep_patterns: set[str] | None = None,
    tables_on=None,
) -> Evaluation:
    """Evaluate ``selected`` (default: the whole catalog) and what they need on one experiment.
    ``baseline_id``: the sequential experiment of the properties that compare two runs.
    ``keep_patterns``: the patterns whose rows stay readable afterwards (default: all); the
    rows of the others are dropped as soon as every entry reading them is evaluated, so that
    memory holds only what the rest of the evaluation still reads. Properties' rows stay.
    ``tables_on``: the engine computing the rows (default ``DuckDBTables(con)``); ``con``
    answers what the experiment holds (its requirements). On DuckDB the stored tables that the
    evaluation reads read only the files of the experiment and its baseline meanwhile
    (``database.experiments_only``)."""
    tables_on = tables_on or DuckDBTables(con)
    stored, views = database.base_tables(), database.view_names()
    objects = {o.name: o for o in sqlviews.ordered(sqlviews.load_objects(), stored)}
    unmet = Requirements(con, experiment_id, baseline_id)
    items = plan(catalog, stored | set(objects), selected, views, unmet, tables_on.name)  # = database.object_names()
    run = functools.partial(
        _evaluate, con, catalog, experiment_id, values, items, unmet, (objects, views), baseline_id, keep_patterns
    )
    if tables_on.name != "duckdb":
        return run(tables_on)
    read = [experiment_id] if baseline_id is None else [experiment_id, baseline_id]
    shadowed = _tables_read(items, objects, views) & stored | {"events"}  # events: counted in _evaluate
    with database.experiments_only(con, read, shadowed):
        return run(tables_on)


def _tables_read(items: list[Rendered], objects: dict[str, sqlviews.SqlObject], views: set[str]) -> set[str]:
    """The tables and objects of sql/ that the entries ``items`` read, in their own SQL or in
    that of the plain views (``views``, of ``objects``) whose copies they read (``_compute_view``)."""
    read: set[str] = set()
    pending = [name for item in items for name in (*item.tables, *item.views, *item.baseline_views)]
    while pending:
        name = pending.pop()
        if name not in read:
            read.add(name)
            if name in views:
                pending += objects[name].refs
    return read


def _evaluate(
    con: duckdb.DuckDBPyConnection,
    catalog: dict[str, Property],
    experiment_id: int,
    values: dict | None,
    items: list[Rendered],
    unmet: Requirements,
    model: tuple[dict[str, sqlviews.SqlObject], set[str]],
    baseline_id: int | None,
    keep_patterns: set[str] | None,
    tables_on,
) -> Evaluation:
    """``evaluate``'s work: the plan's ``items`` on ``tables_on.workers`` (one: in plan order, here;
    several: side by side on threads); ``model``: the objects of sql/ by name and its plain
    views. An entry starts once every entry it reads has a status, its plain views computed
    on ``tables_on`` first; entries after a failed one do not start, and the first failure in
    plan order is raised, as one at a time."""
    values = values or {}
    objects, views = model
    status: dict[str, str] = {}
    seconds: dict[str, float] = {}
    computed_views: set[str] = set()
    readers = {name: sum(name in item.refs for item in items) for name in catalog}

    def blocked(item: Rendered, bound: dict) -> str | None:
        """Why ``item`` is not evaluable (the first reason), or None."""
        prop = item.prop
        reasons = [unmet.status(r) for r in prop.requires if r in unmet]
        reasons += [
            f"not evaluable: no {bound[name]} metric"
            for name, spec in prop.params.items()
            if spec.get("counter") and bound[name] not in unmet.counters
        ]
        reasons += [status[d] for d in item.refs if status[d] != "evaluated"]
        return reasons[0] if reasons else None

    def prepared(item: Rendered, bound: dict) -> dict:
        """The parameters ``item`` uses, its plain views computed (on ``tables_on``)."""
        prop = item.prop
        used = set(_PARAM.findall(item.sql))
        undeclared = used - set(bound)
        if undeclared:
            raise CosyError(prop.path, f"uses undeclared parameter(s) {', '.join(sorted(undeclared))}")
        for view in item.views:
            _compute_view(tables_on, view, objects, views, experiment_id, computed_views, seconds, prop.path)
        for view in item.baseline_views:
            _compute_view(
                tables_on, view, objects, views, baseline_id, computed_views, seconds, prop.path, _baseline_view_copy
            )
        return {k: v for k, v in bound.items() if k in used}

    def finished(item: Rendered, outcome: str) -> None:
        status[item.prop.name] = outcome
        if keep_patterns is not None:
            _release(tables_on, catalog, item.refs, readers, keep_patterns)

    def completed(i: int, outcome: Callable[[], float]) -> None:
        """Entry ``i`` evaluated (``outcome``: its seconds), or failed."""
        try:
            seconds[items[i].prop.name] = outcome()
            finished(items[i], "evaluated")
        except CosyError as error:
            failed[i] = error

    failed: dict[int, CosyError] = {}  # by plan position: the first one is raised, as if one at a time
    pending = list(range(len(items)))
    running: dict[concurrent.futures.Future, tuple[int, DuckDBTables]] = {}
    (events,) = con.execute("SELECT count(*) FROM events WHERE experiment_id = ?", [experiment_id]).fetchone()
    with tables_on.workers(events) as workers, concurrent.futures.ThreadPoolExecutor(len(workers)) as pool:
        idle = list(workers)
        while True:
            for i in list(pending):
                item = items[i]
                if failed and i > min(failed):
                    break  # entries after a failed one are not started
                if not idle or any(r not in status for r in item.refs):
                    continue  # an entry it reads is still evaluated
                pending.remove(i)
                bound = {
                    "p_experiment_id": experiment_id,
                    "p_rank_basis": values.get("p_rank_basis"),
                    "p_baseline_id": baseline_id,
                }
                bound.update({name: values.get(name, spec.get("default")) for name, spec in item.prop.params.items()})
                if reason := blocked(item, bound):
                    finished(item, reason)
                    continue
                try:
                    params = prepared(item, bound)
                except CosyError as error:
                    failed[i] = error
                    continue
                worker = idle.pop()
                if len(workers) == 1:  # here, in order
                    completed(i, functools.partial(_evaluate_entry, worker, item, params))
                    idle.append(worker)
                else:
                    running[pool.submit(_evaluate_entry, worker, item, params)] = (i, worker)
            if not running:
                break
            done, _ = concurrent.futures.wait(running, return_when=concurrent.futures.FIRST_COMPLETED)
            for future in sorted(done, key=lambda f: running[f][0]):
                i, worker = running.pop(future)
                idle.append(worker)
                completed(i, future.result)
    if failed:
        raise failed[min(failed)]
    status = {item.prop.name: status[item.prop.name] for item in items}  # in plan order
    return Evaluation(con, catalog, experiment_id, status, seconds, tables_on)


def _evaluate_entry(tables_on: DuckDBTables, item: Rendered, params: dict) -> float:
    """Compute ``item``'s rows on ``tables_on`` and check their columns; the seconds it took."""
    started = time.perf_counter()
    prop = item.prop
    tables_on.create(_rows(prop.name), item.sql, params, prop.path, item.engine_sql)
    actual = tables_on.columns(_rows(prop.name))
    _check_columns(prop, actual, RESULT_COLUMNS if prop.kind == "property" else prop.columns)
    return time.perf_counter() - started


_INTEGERS = {
    "TINYINT",
    "SMALLINT",
    "INTEGER",
    "BIGINT",
    "HUGEINT",
    "UTINYINT",
    "USMALLINT",
    "UINTEGER",
    "UBIGINT",
    "UHUGEINT",
}


def _release(
    tables_on: DuckDBTables,
    catalog: dict[str, Property],
    refs: list[str],
    readers: dict[str, int],
    keep: set[str],
) -> None:
    """Count an evaluated entry's ``refs`` as read: drop the rows of each pattern outside
    ``keep`` that no later entry reads."""
    for name in refs:
        readers[name] -= 1
        if readers[name] == 0 and catalog[name].kind == "pattern" and name not in keep:
            tables_on.drop(_rows(name))


def _compute_view(
    tables_on: DuckDBTables,
    view: str,
    objects: dict[str, sqlviews.SqlObject],
    views: set[str],
    experiment_id: int,
    computed: set[str],
    seconds: dict[str, float],
    where,
    copy=None,
) -> None:
    """Compute plain view ``view`` of sql/ (one of ``views``) for one experiment into its
    copy (``copy(view)``: ``_view_copy``, or ``_baseline_view_copy`` for the baseline
    experiment), first the plain views it reads: each is computed once per evaluation and
    read from its copy (a view read through DuckDB's own definition would recompute the
    views below it), and every table it reads is restricted to the experiment before it is
    joined. ``computed``: the copies made so far."""
    copy = copy or _view_copy
    if copy(view) in computed:
        return
    for name in objects[view].refs:
        if name in views:
            _compute_view(tables_on, name, objects, views, experiment_id, computed, seconds, where, copy)

    def ref(name: str) -> str:
        if copy(name) in computed:
            return copy(name)
        if name in objects and objects[name].kind == "macro":
            return name
        return _of_experiment(name)

    started = time.perf_counter()
    tables_on.create(
        copy(view),
        f"SELECT * FROM ({sqlviews.render_reading(objects[view], ref)}) WHERE experiment_id = $p_experiment_id",
        {"p_experiment_id": experiment_id},
        where,
    )
    seconds[f"view {view}" if copy is _view_copy else f"view {view} of the baseline"] = time.perf_counter() - started
    computed.add(copy(view))


def _type_family(duckdb_type: str) -> str:
    """Integers are one family, floating and decimal numbers another (their width depends on
    the data: sum() of BIGINT is HUGEINT); any other type is itself."""
    t = duckdb_type.upper()
    if t in _INTEGERS:
        return "integer"
    if t in ("FLOAT", "DOUBLE", "REAL") or t.startswith("DECIMAL"):
        return "number"
    return t


def _check_columns(prop: Property, actual: dict[str, str], declared: dict[str, str]) -> None:
    """An entry returns the columns it declares (a property: the result row), in order and
    of the declared type family; a column that is NULL in every row has no type to check."""
    if tuple(actual) != tuple(declared):
        raise CosyError(prop.path, f"returns columns {', '.join(actual)}; it declares {', '.join(declared)}")
    wrong = [
        f"{name} is {kind}, declared {declared[name]}"
        for name, kind in actual.items()
        if kind != '"NULL"' and _type_family(kind) != _type_family(declared[name])
    ]
    if wrong:
        raise CosyError(prop.path, "returns " + "; ".join(wrong))


def _rows(name: str) -> str:
    """The temporary table holding an evaluated entry's rows (known to this module only)."""
    return f"prop_{name}"


def _view_copy(name: str) -> str:
    """The temporary table holding a plain view's rows of the evaluated experiment."""
    return f"view_{name}"


def _baseline_view_copy(name: str) -> str:
    """The temporary table holding a plain view's rows of the baseline experiment."""
    return f"baseline_view_{name}"


def _of_experiment(name: str, parameter: str = "p_experiment_id") -> str:
    """Table or view ``name`` of sql/ restricted to the experiment bound as ``$parameter``."""
    return f"(select * from {name} where experiment_id = ${parameter})"


@dataclass
class Evaluation:
    """The catalog evaluated on one experiment: each entry's status ("evaluated" or "not
    evaluable: why"), the seconds it took and its rows, read with ``query`` through
    ``{{ ref('name') }}``."""

    con: duckdb.DuckDBPyConnection
    catalog: dict[str, Property]
    experiment_id: int
    status: dict[str, str]
    seconds: dict[str, float] = field(default_factory=dict)  # per evaluated entry (and shared view)
    tables_on: DuckDBTables | None = None  # the engine holding the rows (None: DuckDB's, on con)

    def evaluated(self, name: str) -> bool:
        return self.status.get(name) == "evaluated"

    def query(self, sql: str, params: dict | None = None) -> duckdb.DuckDBPyConnection:
        """Run ``sql`` with ``{{ ref('x') }}`` reading entry x's rows (it must be evaluated) or
        table or view x of this experiment; ``$p_experiment_id`` is bound."""
        return self.con.execute(*self._prepared(sql, params))

    def table(self, sql: str, params: dict | None = None) -> pa.Table:
        """The rows of ``sql`` (``ref()`` as in ``query``), computed by the evaluation's engine."""
        text, bound = self._prepared(sql, params)
        return (self.tables_on or DuckDBTables(self.con)).arrow(
            text, {k: v for k, v in bound.items() if f"${k}" in text}
        )

    def _prepared(self, sql: str, params: dict | None) -> tuple[str, dict]:
        """``sql`` with its ``ref()`` calls resolved (entries read must be evaluated), and its
        parameters with ``$p_experiment_id`` where it is used."""
        text, refs = _render_query(self.catalog, sql, "query")
        _require_evaluated(self.status, refs, "query")
        bound = dict(params or {})
        if "$p_experiment_id" in text:
            bound["p_experiment_id"] = self.experiment_id
        return text, bound

    def rows(self, name: str) -> pa.Table:
        """Entry ``name``'s rows."""
        return self.table(f"SELECT * FROM {{{{ ref('{name}') }}}}")

    def results(self, threshold: float, rank_basis: str | None) -> pa.Table:
        """Every property's rows, named and flagged, as a ``property_results`` table (rows of
        the properties not evaluable: one with the reason in ``status``)."""
        return _results(self, threshold, rank_basis)

    def cube(self) -> pa.Table:
        """The evaluated ``time_cube`` pattern as a ``severity_cube`` table."""
        cube_schema = tables.schema(database.CUBE_TABLE)
        return self.table(f"SELECT {', '.join(cube_schema.names)} FROM {{{{ ref('time_cube') }}}}").cast(cube_schema)


def _render_query(catalog: dict[str, Property], sql: str, where) -> tuple[str, list[str]]:
    """``sql`` with its ``ref()`` calls resolved, and the catalog entries it names."""
    ref, refs, *_ = _referrer(catalog, database.object_names(), frozenset(), where, query=True)
    return templating.render(sql, where, _environment(catalog), ref=ref), list(dict.fromkeys(refs))


def _require_evaluated(status: dict[str, str], refs: list[str], where) -> None:
    blocked = [f"{name}: {status.get(name, 'not evaluated')}" for name in refs if status.get(name) != "evaluated"]
    if blocked:
        raise CosyError(where, "; ".join(blocked))


def resolve_refs(
    con: duckdb.DuckDBPyConnection, catalog: dict[str, Property], experiment_id: int, query: str
) -> tuple[str, dict]:
    """An ad-hoc query with ``{{ ref('name') }}`` resolved for one experiment as in a property
    file (a pattern or property is evaluated with its default parameters first), and the
    parameters to run it with."""
    sql, refs = _render_query(catalog, query, "query")
    if refs:
        _require_evaluated(evaluate(con, catalog, experiment_id, {}, sorted(refs)).status, refs, "query")
    return sql, ({"p_experiment_id": experiment_id} if "$p_experiment_id" in sql else {})


def _results(evaluation: Evaluation, threshold: float, rank_basis: str | None) -> pa.Table:
    catalog, status = evaluation.catalog, evaluation.status
    evaluated_at = dt.datetime.now(dt.timezone.utc).isoformat(timespec="seconds")
    parts = []
    for name, state in status.items():
        prop = catalog[name]
        if prop.kind != "property":
            continue
        meta = f"'{name}' AS property, {_literal(prop.parent)} AS parent, 'property' AS kind, '{prop.unit}' AS unit"
        if state == "evaluated":
            parts.append(f"SELECT {meta}, r.*, {_literal(None)} AS status FROM {{{{ ref('{name}') }}}} AS r")
        else:
            nulls = ", ".join(f"NULL::{kind} AS {column}" for column, kind in RESULT_COLUMNS.items())
            parts.append(f"SELECT {meta}, {nulls}, {_literal(state)} AS status")
    if not parts:
        return tables.schema(database.RESULTS_TABLE).empty_table()
    # every entry's rows have RESULT_COLUMNS, in order; read from the evaluation's engine as
    # they are, then named, flagged and sorted by DuckDB (on Spark, joining and sorting the
    # union there took jobs of 6.0-7.0 s on lulesh_hyb-8x2-small, reading it 2.2 s)
    rows = evaluation.table("\nUNION ALL\n".join(parts))
    with (
        database.registered(evaluation.con, cosydb_result_rows=rows),
        database.experiments_only(evaluation.con, [evaluation.experiment_id], {"callpaths", "regions", "locations"}),
    ):
        table = evaluation.query(
            f"""
            SELECT r.property, r.parent, r.kind, r.unit, r.callpath_id, c.path AS callpath,
                   coalesce(r.region_id, c.region_id) AS region_id, coalesce(g.name, f.name) AS region,
                   r.location_id, l.rank, l.thread, r.condition_id, r.condition, r.confidence,
                   -- a severity that is no number (a ratio over nothing) is none: never a problem
                   CASE WHEN isfinite(r.severity) THEN r.severity END AS severity, r.value,
                   {_is_problem("r.")} AS is_problem,
                   r.details, coalesce(r.status, 'evaluated') AS status
            FROM cosydb_result_rows AS r
            LEFT JOIN {{{{ ref('callpaths') }}}} c ON c.callpath_id = r.callpath_id
            LEFT JOIN {{{{ ref('regions') }}}} g ON g.region_id = c.region_id
            LEFT JOIN {{{{ ref('regions') }}}} f ON f.region_id = r.region_id
            LEFT JOIN {{{{ ref('locations') }}}} l ON l.location_id = r.location_id
            ORDER BY r.property, r.severity DESC NULLS LAST, c.path, region, r.location_id NULLS FIRST
        """,
            {"p_threshold": threshold},
        ).to_arrow_table()
    n = table.num_rows
    table = table.append_column("threshold", pa.array([threshold] * n, pa.float64()))
    table = table.append_column("rank_basis", pa.array([rank_basis] * n, pa.string()))
    table = table.append_column("evaluated_at", pa.array([evaluated_at] * n, pa.string()))
    return table.cast(tables.schema(database.RESULTS_TABLE))


def rows_of(results: pa.Table, properties: list[str], keep: bool = True) -> pa.Table:
    """The rows of ``results`` whose property is one of ``properties`` (``keep=False``: the
    others). pyarrow.compute is imported here, not with the module: a report that filters no
    rows does without its import (30-50 ms of a command)."""
    import pyarrow.compute as pc

    chosen = pc.is_in(results.column("property"), pa.array(properties, pa.string()))
    return results.filter(chosen if keep else pc.invert(chosen))


def _is_problem(row: str = "") -> str:
    """Is a row (columns prefixed ``row``) a problem: its condition holds and its severity, a
    finite number, exceeds ``$p_threshold``."""
    return f"coalesce({row}condition AND isfinite({row}severity) AND {row}severity > $p_threshold, false)"


def flag(con: duckdb.DuckDBPyConnection, results: pa.Table, threshold: float) -> pa.Table:
    """Stored ``property_results`` rows with ``is_problem`` and ``threshold`` for ``threshold``,
    as an evaluation at that threshold gives them, in their order."""
    with database.registered(con, stored_results=results):
        flagged = con.execute(
            f"SELECT * REPLACE ({_is_problem()} AS is_problem, $p_threshold AS threshold) FROM stored_results",
            {"p_threshold": threshold},
        ).to_arrow_table()
    return flagged.cast(tables.schema(database.RESULTS_TABLE))


def _literal(value: str | None) -> str:
    return "NULL::VARCHAR" if value is None else database.quote(value)


def store(
    root: Path,
    experiment_id: int,
    results: dict[str, pa.Table],
    replace_properties: list[str] | None = None,
    identity: pa.Table | None = None,
) -> list[str]:
    """Replace the experiment's stored result tables (writer ``report`` in ``cosydb.tables``) given,
    each file atomically. The catalog needs no rewrite: its views read these files by name
    (a load writes them, empty). With ``replace_properties`` only those properties' rows of
    ``property_results`` are replaced; returns the properties whose stored rows were kept.
    ``identity``: the ``property_evaluation`` row of the evaluation whose rows are stored
    (default none: a report then evaluates again); it is emptied before the tables are
    replaced and written after them, so that it never names rows of another evaluation.
    Under the views lock: two reports never lose each other's rows."""
    directory = database.experiment_dir(root, experiment_id)
    unknown = tables.schema(database.EVALUATION_TABLE).empty_table()
    kept: list[str] = []
    with database.locked(root), interrupts.deferred():  # a signal waits for every table to be replaced
        _replace(directory, database.EVALUATION_TABLE, unknown)
        for name, table in results.items():
            target = directory / f"{name}.parquet"
            if name == database.RESULTS_TABLE and replace_properties is not None and target.exists():
                old = pq.read_table(target).cast(tables.schema(database.RESULTS_TABLE))
                old = rows_of(old, replace_properties, keep=False)
                kept = sorted(set(old.column("property").to_pylist()))
                table = pa.concat_tables([old, table])
            _replace(directory, name, table)
        if identity is not None:
            _replace(directory, database.EVALUATION_TABLE, identity)
    return kept


def _replace(directory: Path, name: str, table: pa.Table) -> None:
    """Replace stored table ``name`` of an experiment directory atomically (a temporary file renamed)."""
    target = directory / f"{name}.parquet"
    tmp = directory / f".{name}.{os.getpid()}.tmp"
    try:
        pq.write_table(table, tmp)
        os.replace(tmp, target)
    except OSError as error:  # Arrow's names no file (a full disk): name the table's
        if error.filename or not error.errno:
            raise
        raise OSError(error.errno, os.strerror(error.errno), str(target)) from None
    finally:
        tmp.unlink(missing_ok=True)
