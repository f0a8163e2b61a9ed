"""cosydb from Python: the functions the command line is built on.

    import cosydb
    db = cosydb.load("run/traces.otf2", "run.cosydb")  # or cosydb.open("run.cosydb")
    db.experiments()                                  # Arrow tables, .to_pandas() for pandas
    db.table("messages")
    db.sql("SELECT * FROM {{ ref('late_sender_matches') }} LIMIT 5")
    report = db.report(threshold=0.01)                # report.problems, report.results, ...

Tables are pyarrow.Table (``.to_pandas()`` where pandas is installed, ``polars.from_arrow``);
``{{ ref('name') }}`` in a query evaluates a pattern or property of the catalog on one
experiment (default: the latest trace). A failure raises ``cosydb.errors.CosyError`` naming
the file at fault.
"""

from __future__ import annotations

import contextlib
import json
import os
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

import pyarrow as pa

from . import database, loading, sandbox, sqlviews
from . import report as report_mod
from .errors import CosyError

#: rows per record batch of a streamed result
BATCH_ROWS = 10_000


def open(path: str | os.PathLike) -> Database:  # noqa: A001 - cosydb.open, as the issue names it
    """The database at ``path`` (a directory written by ``cosydb load``)."""
    root = Path(path)
    if not database.is_database(root):
        raise CosyError(root, "not a cosydb database (cosydb load creates one)")
    return Database(root)


def load(source: str | os.PathLike, db: str | os.PathLike | None = None, **options) -> Database:
    """Load the trace or profile ``source`` as a new experiment of ``db`` (default
    ``./<run>.cosydb``) and return the database; ``options`` as ``cosydb.loading.load``
    (``name``, ``workers``, ``memory_limit``, ``threads``)."""
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
class Database:
    """An open cosydb database; each call opens and closes its own connection."""

    path: Path

    def experiments(self) -> pa.Table:
        return self.sql("SELECT * FROM experiments ORDER BY experiment_id")

    def table(self, name: str, experiment: str | None = None) -> pa.Table:
        """The rows of a stored table or a view of ``sql/`` (docs/schema.md) of one experiment
        (name or id; default: the latest trace)."""
        if name not in database.base_tables() | database.view_names():
            raise CosyError(self.path, f"no table or view '{name}' (see cosydb schema)")
        con = database.connect(self.path)
        try:
            exp = report_mod.choose_experiment(con, self.path, experiment)
            return con.execute(
                f"SELECT * EXCLUDE (experiment_id) FROM {name} WHERE experiment_id = ?", [exp["experiment_id"]]
            ).to_arrow_table()
        finally:
            con.close()

    def sql(self, query: str, experiment: str | None = None, write: bool = False) -> pa.Table:
        """The result of one SQL statement (see ``query``) as one table."""
        with self.query(query, experiment, write) as batches:
            return batches.read_all()

    @contextlib.contextmanager
    def query(
        self, query: str, experiment: str | None = None, write: bool = False, batch_rows: int = BATCH_ROWS
    ) -> Iterator[pa.RecordBatchReader]:
        """The result of one SQL statement as a stream of record batches of at most
        ``batch_rows`` rows, read while the block runs (bounded memory). Without ``write`` it
        reads only: one SELECT, or an EXPLAIN [ANALYZE] of one, calling no table function that
        writes (``sandbox.check_reads_only``), and no file outside the database directory."""
        if not query.strip():
            raise CosyError("sql", "the query is empty")
        con = database.connect(self.path, read_only=not write)
        try:
            if not write:
                database.read_only_session(con, self.path, sandbox.private_directory())
            text, params = query, {}
            if "{{" in query or "{%" in query:
                from .catalog import load as load_catalog
                from .engine import resolve_refs

                exp = report_mod.choose_experiment(con, self.path, experiment)
                text, params = resolve_refs(con, load_catalog(), exp["experiment_id"], query)
            if write:
                if len(statements := con.extract_statements(text)) != 1:
                    raise CosyError("sql", f"give one statement, not {len(statements)}")
            else:
                sandbox.check_reads_only(
                    text, frozenset(n for n, o in sqlviews.load_objects().items() if sqlviews.is_table_macro(o))
                )
            result = con.execute(text, params)
            if result.description is None:  # a statement with no result set (write)
                yield pa.table({"ok": [True]}).to_reader()
            else:
                yield result.to_arrow_reader(batch_rows)
        finally:
            con.close()

    def report(self, **options) -> Report:
        """Evaluate the catalog and store ``property_results`` as ``cosydb report`` does;
        ``options`` as ``cosydb.report.run`` (``experiment``, ``threshold``, ``rank_basis``,
        ``properties``, ``params``, ...)."""
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
