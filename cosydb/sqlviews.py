"""Render the SQL files of ``sql/`` (the model) and ``reports/`` (the report layer) and create
them in dependency order.

Each file ``sql/<name>.sql`` defines one object called ``<name>``: a SELECT
or, when the file starts with ``-- macro:``, the body of a ``CREATE MACRO``
statement. Files name the objects they use as ``{{ ref('name') }}``; the
references form the dependency graph, so objects are created parents first
and a missing or cyclic reference is an error. Rendering and ordering are
``cosydb.templating``'s, as for the catalog's entries.

A SELECT is a view unless it declares ``{{ config(materialized='table') }}``
(as in dbt): then ``cosydb load`` evaluates it once per experiment and stores
the result as ``<name>.parquet`` beside the events, and the catalog reads
that file. Heavy enhancement steps (region stack, call paths, message
matching) are materialised so that queries over them are fast. A table that
also declares ``partitioned=true`` is computed one location partition at a
time (``cosydb.partitions``) and stored as ``<name>-<k>.parquet``, one file
per partition: its rows for a location may depend only on the events of that
location's process. A table that declares ``sliced_by='<input>'`` instead is
computed in slices of its join key, one per ``partitions.ROWS_PER_SLICE`` rows of that
input, and stored as ``<name>-<k>.parquet``, one file per slice: its SQL keeps
the rows ``{{ in_slice('<key columns>') }}`` of each joined input, so that a join
across locations (messages) holds a slice of them in memory at a time.

The layers read downwards only (``LAYERS``): the model reads the loaded tables and itself, the
report layer also the catalog's stored results; a ``ref()`` upwards is an error naming the file.
"""

from __future__ import annotations

import functools
import hashlib
import re
from collections.abc import Callable
from dataclasses import dataclass, field
from importlib import resources

import duckdb

from . import templating
from .errors import CosyError

MATERIALIZATIONS = ("view", "table")

#: The packages of SQL objects by layer, lowest first, with the folder each is in.
LAYERS = {
    "model": ("cosydb.sql", "sql"),
    "check": ("cosydb.sql.data_checks", "sql/data_checks"),  # the load's data checks, over the model
    "report": ("cosydb.reports", "reports"),
}


@dataclass
class SqlObject:
    name: str
    source: str
    kind: str  # "view" or "macro"
    layer: str = "model"  # of LAYERS
    refs: list[str] = field(default_factory=list)
    sql: str = ""
    materialized: str = "view"
    partitioned: bool = False  # a table computed one location partition at a time
    sliced_by: str | None = None  # a table computed in slices of its join key, as many as this input's rows ask

    @property
    def is_table(self) -> bool:
        return self.kind == "view" and self.materialized == "table"

    @property
    def path(self) -> str:
        """The file, as errors name it (``sql/messages.sql``)."""
        return f"{LAYERS[self.layer][1]}/{self.name}.sql"

    @property
    def doc(self) -> str:
        """The file's leading comment: what the object is, its grain and columns."""
        lines = []
        for line in self.source.splitlines():
            if not line.startswith("--"):
                break
            lines.append(line[2:].strip())
        return " ".join(line for line in lines if line).strip().removeprefix("macro:").strip()


def _render(obj: SqlObject, known: dict[str, str]) -> None:
    """Render ``obj``; ``known``: the tables and objects it may name, with their layer."""
    where = obj.path

    def ref(name: str) -> str:
        if name not in known:
            raise CosyError(where, f"ref('{name}') names no table or view")
        if known[name] not in READS[obj.layer]:
            raise CosyError(
                where,
                f"ref('{name}') reads the {known[name]} layer: "
                f"the {obj.layer} reads only {', '.join(READS[obj.layer])}",
            )
        if name not in obj.refs:
            obj.refs.append(name)
        return name

    def config(materialized: str = "view", partitioned: bool = False, sliced_by: str | None = None) -> str:
        if materialized not in MATERIALIZATIONS:
            raise CosyError(where, f"materialized must be one of {', '.join(MATERIALIZATIONS)}")
        if (partitioned or sliced_by) and materialized != "table":
            raise CosyError(where, "only a table (materialized='table') can be partitioned or sliced")
        if partitioned and sliced_by:
            raise CosyError(where, "a table is partitioned or sliced, not both")
        if sliced_by is not None and sliced_by not in known:
            raise CosyError(where, f"sliced_by='{sliced_by}' names no table or view")
        obj.materialized, obj.partitioned, obj.sliced_by = materialized, bool(partitioned), sliced_by
        return ""

    obj.refs = []
    obj.sql = templating.render(obj.source, where, ref=ref, config=config, in_slice=whole_slice)


def whole_slice(key: str) -> str:
    """``in_slice(key)`` of a table rendered whole (a view, Spark's table, the views file):
    every row is in its one slice."""
    return "true"


def slice_of(index: int, count: int) -> Callable[[str], str]:
    """``in_slice(key)`` of slice ``index`` of ``count`` (a ``sliced_by`` table's unit of work
    at load): the rows whose key, a list of columns, hashes to it."""
    return lambda key: f"hash({key}) % {count} = {index}"


#: What each layer may read: the loaded tables ("tables"), the report's stored results
#: ("results": the tables ``cosydb report`` writes), and objects of the layers named.
READS = {
    "model": ("tables", "model"),
    "property": ("tables", "model"),  # a catalog entry (cosydb.evaluator), besides other entries
    "check": ("tables", "model", "check"),
    "report": ("tables", "results", "model", "report"),
}


def layer_of(name: str, objects: dict[str, SqlObject] | None = None) -> str:
    """The layer of a table or object ``name`` (one of ``objects``, of the model and report
    layers, else a stored table: "results" or "tables")."""
    if objects and name in objects:
        return objects[name].layer
    return _layers().get(name, "tables")


@functools.cache
def _layers() -> dict[str, str]:
    from . import tables  # which imports this module

    results = {name: "results" for name, table in tables.REGISTRY.items() if table.writer == "report"}
    return results | {name: obj.layer for name, obj in load_objects().items()}


def load_objects(*layers: str) -> dict[str, SqlObject]:
    """The SQL objects of ``layers`` (default: the model and the report layer), keyed by name
    (not yet rendered)."""
    return {
        name: SqlObject(name, source, kind, layer)
        for layer in layers or ("model", "report")
        for name, source, kind in _sources(LAYERS[layer][0])
    }


@functools.cache
def _sources(package: str) -> tuple[tuple[str, str, str], ...]:
    """(name, source, kind) of each SQL file of ``package``, read once per process: a load
    and a report ask for them about a hundred times, and the installed files do not change."""
    found = []
    for entry in sorted(resources.files(package).iterdir(), key=lambda e: e.name):
        if entry.name.endswith(".sql"):
            source = entry.read_text()
            found.append((entry.name[:-4], source, "macro" if source.lstrip().startswith("-- macro:") else "view"))
    return tuple(found)


def is_table_macro(obj: SqlObject) -> bool:
    """A macro returning a table (``name(args) AS TABLE select ...``)."""
    return obj.kind == "macro" and re.search(r"\)\s+as\s+table\b", obj.source, re.I) is not None


@functools.cache
def fingerprint() -> str:
    """A digest of the model's and the report layer's SQL sources: a catalog written from
    other sources is rewritten."""
    digest = hashlib.sha256()
    for name, obj in load_objects().items():
        digest.update(f"{name}\0{obj.source}\0".encode())
    return digest.hexdigest()


#: What ``ordered`` rendered, by the sources and the base tables it rendered them with.
_ORDERED: dict[tuple, tuple[dict, list[str]]] = {}


def ordered(objects: dict[str, SqlObject], base_tables: set[str]) -> list[SqlObject]:
    """Render every object and return them parents first."""
    key = (tuple((o.name, o.source) for o in objects.values()), frozenset(base_tables))
    if key in _ORDERED:
        rendered, order = _ORDERED[key]
        for name, (refs, sql, materialized, partitioned, sliced_by) in rendered.items():
            obj = objects[name]
            obj.refs, obj.sql, obj.materialized = list(refs), sql, materialized
            obj.partitioned, obj.sliced_by = partitioned, sliced_by
        return [objects[name] for name in order]
    known = {name: layer_of(name, objects) for name in base_tables | set(objects)}
    for obj in objects.values():
        _render(obj, known)
    order = templating.dependency_order(
        [name for name in objects if name not in base_tables],
        lambda name: [d for d in objects[name].refs if d in objects and d not in base_tables],
        lambda name: objects[name].path,
    )
    _ORDERED[key] = (
        {o.name: (tuple(o.refs), o.sql, o.materialized, o.partitioned, o.sliced_by) for o in objects.values()},
        order,
    )
    return [objects[name] for name in order]


def render_reading(obj: SqlObject, ref: Callable[[str], str], in_slice: Callable[[str], str] = whole_slice) -> str:
    """The SQL of ``obj`` with its ``ref()`` calls resolved by ``ref`` instead of by name
    (e.g. to one experiment's rows, or to copies an evaluation has already computed), and
    its rows those of ``in_slice`` (default all)."""
    return templating.render(obj.source, obj.path, ref=ref, config=lambda **_: "", in_slice=in_slice)


def creation(obj: SqlObject) -> str:
    """The statement that creates rendered object ``obj`` as a macro or a view."""
    if obj.kind == "macro":
        return f"CREATE OR REPLACE MACRO {obj.sql}"
    return f"CREATE OR REPLACE VIEW {obj.name} AS\n{obj.sql}"


def create(con: duckdb.DuckDBPyConnection, obj: SqlObject) -> None:
    """Create one rendered object on ``con`` as a macro or a view."""
    con.execute(creation(obj))


def read_by(objects: list[SqlObject], names: set[str]) -> set[str]:
    """``names`` and every table and object that they read, directly or not (``objects``:
    rendered, parents first)."""
    read = set(names)
    for obj in reversed(objects):  # readers before what they read
        if obj.name in read:
            read.update(obj.refs)
    return read


def create_all(
    con: duckdb.DuckDBPyConnection,
    base_tables: set[str],
    materialize: Callable[[SqlObject], None] | None = None,
    wanted: set[str] | None = None,
) -> list[str]:
    """Create every object of the model and the report layer on ``con`` (``wanted``: only
    those and the objects they read); returns their names in creation order.

    Objects materialised as tables are passed to ``materialize`` when given
    (which must leave a relation of that name on ``con``), and otherwise
    skipped: the caller has already made them available as base tables.
    """
    objects = ordered(load_objects(), base_tables)
    if wanted is not None:
        wanted = read_by(objects, wanted)
    names = []
    for obj in objects:
        if wanted is not None and obj.name not in wanted:
            continue
        if obj.is_table:
            if materialize is None:
                continue
            materialize(obj)
        else:
            create(con, obj)
        names.append(obj.name)
    return names
