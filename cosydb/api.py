"""cosydb from Python: the functions the command line is built on.

    import cosydb
    with cosydb.open("run.cosydb") as db:       # or cosydb.load("run/traces.otf2", "run.cosydb")
        db.experiments()                        # Arrow tables, .to_pandas() for pandas
        db.table("messages")                    # a stored table or view of sql/, or ...
        db.table("mpi_latesender_matches")      # ... a pattern or property of the catalog, evaluated
        db.sql("SELECT * FROM {{ ref('late_sender_matches') }} WHERE idle_s > ?", [1e-6])
        report = db.report(threshold=0.01)      # cosydb report: report.problems, report.results, ...
        cube = db.cube()                        # cosydb cube: cube.metrics (the metric tree)
        change = db.diff("before", "after")     # cosydb diff: change.rows; two databases:
        change = db.diff(other="new.cosydb")    #   this one's latest trace -> new.cosydb's
        db.export("run.cubex")                  # cosydb export (format="perfetto": the timeline)

Tables are pyarrow.Table (``.to_pandas()`` where pandas is installed, ``polars.from_arrow``);
``{{ ref('name') }}`` in a query evaluates a pattern or property of the catalog on one
experiment (default: the latest trace). A ``Database`` holds nothing open (each call opens
and closes its own connection): ``with`` is for scoping, and a database stays usable after
its block.

Every error a user can cause (a directory that is no database, an unknown table or
experiment, SQL that DuckDB rejects, a file that cannot be written) raises
``cosydb.CosyError`` (``cosydb.errors.CosyError``): one line naming the file or database at
fault and the problem (``errors.user_error``); never DuckDB's own exceptions.
"""

from __future__ import annotations

import contextlib
import functools
import json
import os
import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

import duckdb
import pyarrow as pa

from . import database, loading, sandbox, sqlviews
from . import report as report_mod
from .errors import CosyError, close_names, user_error

#: rows per record batch of a streamed result
BATCH_ROWS = 10_000


@contextlib.contextmanager
def _user_errors(where) -> Iterator[None]:
    """DuckDB's errors and OSErrors raised in the block as the CosyError they are to a user
    (``errors.user_error``: one line naming the file at fault, else ``where``)."""
    try:
        yield
    except (duckdb.Error, OSError) as error:
        raise user_error(error, where) from None


def _converting(method):
    """A method of ``Database`` whose DuckDB errors and OSErrors are CosyErrors naming the database."""

    @functools.wraps(method)
    def wrapper(self, *args, **kwargs):
        with _user_errors(self.path):
            return method(self, *args, **kwargs)

    return wrapper


def open(path: str | os.PathLike) -> Database:  # noqa: A001 - cosydb.open, as the issue names it
    """The database at ``path`` (a directory written by ``cosydb load``)."""
    root = Path(path)
    if not database.is_database(root):
        raise CosyError(root, "not a cosydb database (cosydb load creates one)")
    return Database(root)


def load(
    source: str | os.PathLike | list[str | os.PathLike], db: str | os.PathLike | None = None, **options
) -> Database:
    """Load the trace or profile ``source`` as a new experiment of ``db`` (default
    ``./<run>.cosydb``) and return the database; ``options`` as ``cosydb.loading.load``
    (``name``, ``workers``, ``memory_limit``, ``threads``, ``progress``, ``encoding``).
    A list of sources: one experiment each, committed together (``cosydb.loading.load_runs``;
    ``names`` instead of ``name``)."""
    with _user_errors(source if not isinstance(source, list) else db or "load"):
        if isinstance(source, list):
            (loaded, *_) = loading.load_runs(source, db, **options)
        else:
            loaded = loading.load(source, db, **options)
    return Database(Path(loaded["db"]))


@dataclass
class Report:
    """A report (``cosydb report``): its tabular parts as Arrow tables, the rest as JSON values."""

    experiment: dict
    bottleneck: str | None
    problems: pa.Table  # the ranked problems (view problems)
    results: pa.Table  # every listed row (view report_rows)
    critical_path: pa.Table  # the critical path's activities (view critical_path_summary)
    root_causes: pa.Table  # the call paths and locations whose delay caused waiting
    not_evaluable: dict = field(default_factory=dict)  # reason -> properties
    warnings: list = field(default_factory=list)


@dataclass
class Cube:
    """The severity cube of an experiment (``cosydb cube``), stored as table ``severity_cube``
    (``db.table("severity_cube")``: per metric, call path and location)."""

    experiment: dict  # experiment_id, name
    metrics: pa.Table  # the metric tree in order: metric, parent, depth, unit, inclusive, exclusive, top_callpath


@dataclass
class Diff:
    """Two experiments compared (``cosydb diff``; ``cosydb.report.diff`` says how)."""

    a: str  # the label of each side (its experiment's name, with its database's where both are alike)
    b: str
    experiments: dict  # "a", "b": db, experiment_id, name
    rows: pa.Table  # report.DIFF_COLUMNS, largest change first


@dataclass
class Database:
    """An open cosydb database. It holds nothing open: each call opens and closes its own
    connection, so it is used from several threads or processes alike, and ``with`` (which
    ``cosydb.open`` and ``cosydb.load`` allow) releases nothing."""

    path: Path

    def __enter__(self) -> Database:
        return self

    def __exit__(self, *exc) -> None:
        return None  # nothing to close; an error in the block goes on as it is

    @_converting
    def experiments(self) -> pa.Table:
        return self.sql("SELECT * FROM experiments ORDER BY experiment_id")

    @_converting
    def table(self, name: str, experiment: str | None = None) -> pa.Table:
        """The rows of one experiment (name or id; default: the latest trace) in a stored table
        or a view of ``sql/`` (docs/schema.md), or in a pattern or property of the catalog
        (``cosydb properties``), evaluated as ``{{ ref(name) }}`` in ``sql`` does."""
        if name in database.base_tables() | database.view_names():
            con = database.connect(self.path)
            try:
                exp = report_mod.choose_experiment(con, self.path, experiment)
                return con.execute(
                    f"SELECT * EXCLUDE (experiment_id) FROM {name} WHERE experiment_id = ?", [exp["experiment_id"]]
                ).to_arrow_table()
            finally:
                con.close()
        from .catalog import load as load_catalog

        catalog = load_catalog()
        if name not in catalog:
            known = (
                database.base_tables() | database.view_names() | {n for n, p in catalog.items() if p.kind != "category"}
            )
            close = close_names(name, known)
            raise CosyError(
                self.path,
                f"no table, view, pattern or property '{name}' (see cosydb schema, cosydb properties)"
                + (f"; did you mean {', '.join(close)}?" if close else ""),
            )
        if catalog[name].kind == "category":
            raise CosyError(self.path, f"'{name}' is a category of the catalog, which has no rows (see its properties)")
        return self.sql(f"SELECT * FROM {{{{ ref('{name}') }}}}", experiment=experiment)

    @_converting
    def sql(
        self, query: str, params: list | tuple | dict | None = None, experiment: str | None = None, write: bool = False
    ) -> pa.Table:
        """The result of one SQL statement (see ``query``) as one table."""
        with self.query(query, params, experiment=experiment, write=write) as batches:
            return batches.read_all()

    @contextlib.contextmanager
    def query(
        self,
        query: str,
        params: list | tuple | dict | None = None,
        experiment: str | None = None,
        write: bool = False,
        batch_rows: int = BATCH_ROWS,
    ) -> Iterator[pa.RecordBatchReader]:
        """The result of one SQL statement as a stream of record batches of at most
        ``batch_rows`` rows, read while the block runs (bounded memory). ``params``: the
        values of its parameters, bound by DuckDB (never pasted into the text): a list for
        ``?`` (or ``$1``, ``$2``), a dict for ``$name``; ``{{ ref('x') }}`` binds its own,
        ``$p_experiment_id`` (the experiment it reads), which a dict must not name. Without
        ``write`` it reads only: one SELECT, or an EXPLAIN [ANALYZE] of one, calling no table
        function that writes (``sandbox.check_reads_only``), and no file outside the
        database directory."""
        opened = contextlib.ExitStack()
        with _user_errors(self.path):
            batches = opened.enter_context(statement(self.path, query, params, experiment, write, batch_rows))

        reading = True

        def converted():  # a failure while the rows stream (DuckDB's, through Arrow) is the user's too
            with _user_errors(self.path):
                while True:
                    if not reading:
                        raise CosyError(self.path, "the rows of query() are read inside its with block")
                    try:
                        batch = batches.read_next_batch()
                    except StopIteration:
                        return
                    yield batch

        with opened:  # the block's own errors go on as they are
            try:
                yield pa.RecordBatchReader.from_batches(batches.schema, converted())
            finally:
                reading = False

    @_converting
    def report(self, **options) -> Report:
        """Evaluate the catalog and store ``property_results`` as ``cosydb report`` does (asked
        again with the same catalog and parameters, read the stored rows; ``fresh=True``
        evaluates in any case); ``options`` as ``cosydb.report.run`` (``experiment``,
        ``threshold``, ``rank_basis``, ``properties``, ``params``, ``fresh``, ...)."""
        result = report_mod.run(self.path, **options)
        for row in result["results"]:  # a listed row's details (a distribution) as JSON text
            row["details"] = None if row["details"] is None else json.dumps(row["details"])
        tables = {
            part: pa.Table.from_pylist(result[part]) for part in ("problems", "results", "critical_path", "root_causes")
        }
        return Report(
            experiment=result["experiment"],
            bottleneck=result.get("bottleneck"),
            not_evaluable=result.get("not_evaluable", {}),
            warnings=result.get("warnings", []),
            **tables,
        )

    @_converting
    def cube(self, experiment: str | None = None) -> Cube:
        """Compute the severity cube (metric, call path, location) of an experiment (default:
        the latest trace) and store it as table ``severity_cube``, as ``cosydb cube`` does;
        its metric tree with inclusive and exclusive totals."""
        result = report_mod.cube(self.path, experiment)
        return Cube(experiment=result["experiment"], metrics=pa.Table.from_pylist(result["metrics"]))

    @_converting
    def diff(
        self,
        a: str | None = None,
        b: str | None = None,
        other: str | os.PathLike | Database | None = None,
        properties: list[str] | None = None,
        properties_dirs: list[Path] | tuple = (),
        params: dict | None = None,
    ) -> Diff:
        """Compare two experiments as ``cosydb diff`` does: ``a`` and ``b`` of this database,
        or, with ``other`` (a database or its path), ``a`` of this one with ``b`` of
        ``other`` (each left out: its database's latest trace). ``properties``: compare only
        these; ``properties_dirs`` and ``params`` as ``report``."""
        result = report_mod.diff(
            self.path,
            a,
            b,
            properties,
            properties_dirs,
            params,
            db_b=other.path if isinstance(other, Database) else other,
        )
        return Diff(
            a=result["a"],
            b=result["b"],
            experiments=result["experiments"],
            rows=pa.Table.from_pylist(result["rows"], report_mod.DIFF_COLUMNS),
        )

    @_converting
    def export(
        self,
        output: str | os.PathLike,
        format: str = "cube",  # noqa: A002 - cosydb export --format
        experiment: str | None = None,
        start: float | None = None,
        end: float | None = None,
        locations: list[str | int] | None = None,
        properties_dirs: list[str | os.PathLike] | tuple = (),
    ) -> dict:
        """Write an experiment (default: the latest trace) to ``output`` as ``cosydb export``
        does: ``format="cube"`` its severity cube as a CUBE4 file (.cubex, for the Cube tools),
        ``"perfetto"`` its timeline as trace-event JSON (for ui.perfetto.dev), of the window
        ``start`` to ``end`` (seconds) and the ``locations`` given (ranks ``3`` or threads
        ``"3:1"``; default all), with the catalog's plug-ins of ``properties_dirs``. Returns
        ``path`` and the counts written."""
        from . import formats

        written = formats.chosen(formats.EXPORT, format, self.path).export(
            self.path, output, experiment, start, end, locations, [Path(d) for d in properties_dirs]
        )
        return dict(path=Path(output), format=format, **written)


@contextlib.contextmanager
def statement(
    root: Path, query: str, params, experiment: str | None, write: bool, batch_rows: int
) -> Iterator[pa.RecordBatchReader]:
    """Run one statement on the database at ``root`` and stream its result while the block
    runs: ``Database.query``, whose CosyErrors name the database, and ``cosydb sql``, whose
    messages are DuckDB's own (``cli._guard``)."""
    if not query.strip():
        raise CosyError("sql", "the query is empty")
    if params is not None and not isinstance(params, (list, tuple, dict)):
        raise CosyError("sql", f"params: a list (for ?) or a dict (for $name), not {type(params).__name__}")
    con = database.connect(root, read_only=not write)
    try:
        if not write:
            database.read_only_session(con, root, sandbox.private_directory())
        text, bound = query, {}
        if "{{" in query or "{%" in query:
            from .catalog import load as load_catalog
            from .evaluator import resolve_refs

            exp = report_mod.choose_experiment(con, root, experiment)
            text, bound = resolve_refs(con, load_catalog(), exp["experiment_id"], query)
        if isinstance(params, dict):
            taken = sorted(set(params) & set(bound))
            if taken:
                raise CosyError(
                    "sql", f"params: ${taken[0]} is the experiment {{{{ ref() }}}} reads; name yours otherwise"
                )
            bound = {**bound, **params}
        elif params is not None:
            # DuckDB binds either positions or names: the experiment of ref() (an id of this
            # database, an integer) is written in the text then
            for name, value in bound.items():  # $name as a whole word, not a prefix of a longer one
                text = re.sub(rf"\${name}\b", str(int(value)), text)
            bound = list(params)
        if write:
            if len(statements := con.extract_statements(text)) != 1:
                raise CosyError("sql", f"give one statement, not {len(statements)}")
        else:
            sandbox.check_reads_only(
                text, frozenset(n for n, o in sqlviews.load_objects().items() if sqlviews.is_table_macro(o)), con
            )
        result = con.execute(text, bound or None)
        if result.description is None:  # a statement with no result set (write)
            yield pa.table({"ok": [True]}).to_reader()
        else:
            reader = result.to_arrow_reader(batch_rows)
            try:
                yield reader
            finally:  # first: a stream left open (rows not all read) blocks the next connection to the file
                reader.close()
    finally:
        con.close()
