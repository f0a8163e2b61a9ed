"""The on-disk database: experiment directories of Parquet files plus a DuckDB catalog.

Layout::

    run.cosydb/
        cosydb.duckdb                 catalog: one view per table, the sql/ views and macros
        experiments/<id>/
            experiment.parquet        one row: name, source, clock, tool and schema version
            events-<k>.parquet        events sorted by location then seq (one file per reader)
            metric_values-<k>.parquet
            <definition table>.parquet, record_counts.parquet, load_warnings.parquet
            cnodes.parquet, profile_metrics.parquet, profile_values.parquet   (profiles; empty for traces)
            summary_regions.parquet, sm_sums.parquet, ... (ASL summary input; empty otherwise)
            <derived table>.parquet   sql/ objects materialised at load (region_instances, ...)

The catalog holds no data: its views read the Parquet files by absolute path,
so ``duckdb run.cosydb/cosydb.duckdb`` works in the stock DuckDB shell. If the
directory is moved, or the views of sql/ changed, cosydb rewrites the catalog the
next time it opens it.
"""

from __future__ import annotations

import os
from pathlib import Path

import duckdb
import pyarrow as pa
import pyarrow.parquet as pq

from . import SCHEMA_VERSION, __version__, sqlviews
from .errors import CosyError

CATALOG = "cosydb.duckdb"
EXPERIMENTS = "experiments"

#: Tables stored per experiment; those with several files are globbed by prefix.
SINGLE_FILE_TABLES = (
    "locations", "location_groups", "system_tree", "regions", "groups", "group_members",
    "communicators", "communicator_members", "metrics", "parameters", "strings",
    "record_counts", "load_warnings", "property_results", "severity_cube",
    "cnodes", "profile_metrics", "profile_values",
    "summary_regions", "sm_sums", "variable_accesses", "hpf_sums", "hpf_decls", "system_constants",
)
MULTI_FILE_TABLES = ("events", "metric_values")
RESULTS_TABLE = "property_results"
#: ``property_results`` (written by ``cosydb report``, empty after load): one row per (property, call path, location) result, or one row per property that could not be evaluated.
RESULT_SCHEMA = pa.schema([
    ("property", pa.string()), ("parent", pa.string()), ("kind", pa.string()), ("unit", pa.string()),
    ("callpath_id", pa.int64()), ("callpath", pa.string()), ("region", pa.string()),
    ("location_id", pa.int64()), ("rank", pa.int64()), ("thread", pa.int64()),
    ("condition_id", pa.string()), ("condition", pa.bool_()), ("confidence", pa.float64()),
    ("severity", pa.float64()), ("value", pa.float64()), ("is_problem", pa.bool_()),
    ("details", pa.string()), ("status", pa.string()),
    ("threshold", pa.float64()), ("rank_basis", pa.string()), ("evaluated_at", pa.string()),
])
CUBE_TABLE = "severity_cube"
#: ``severity_cube`` (written by ``cosydb report`` and ``cosydb cube``, empty after load): the
#: time_cube pattern, (metric, call path, location) -> inclusive / exclusive value in ``unit``.
CUBE_SCHEMA = pa.schema([
    ("metric", pa.string()), ("parent", pa.string()), ("unit", pa.string()),
    ("callpath_id", pa.int64()), ("location_id", pa.int64()),
    ("inclusive", pa.float64()), ("exclusive", pa.float64()),
])
#: The tables of analysis results, written empty at load and replaced by the analyses.
RESULT_TABLES = {RESULTS_TABLE: RESULT_SCHEMA, CUBE_TABLE: CUBE_SCHEMA}
#: What a loader writes.
RAW_TABLES = {"experiments", *SINGLE_FILE_TABLES, *MULTI_FILE_TABLES}
#: The sql/ objects computed once per experiment at load and stored as Parquet.
DERIVED_TABLES = tuple(sqlviews.table_names(RAW_TABLES))
BASE_TABLES = RAW_TABLES | set(DERIVED_TABLES)


def object_names() -> set[str]:
    """Every stored table and every object of ``sql/``: what property and check SQL may reference."""
    return BASE_TABLES | set(sqlviews.load_objects())


def view_names() -> set[str]:
    """The objects of ``sql/`` that are plain views (computed whenever they are read)."""
    return {name for name, obj in sqlviews.load_objects().items() if obj.kind == "view"} - BASE_TABLES


def is_database(path: Path) -> bool:
    return (path / CATALOG).is_file()


def experiment_dirs(root: Path) -> list[Path]:
    """Committed experiment directories, in id order (staging directories start with '.')."""
    base = root / EXPERIMENTS
    if not base.is_dir():
        return []
    return sorted((d for d in base.iterdir() if d.is_dir() and d.name.isdigit()),
                  key=lambda d: int(d.name))


def _files(directory: Path, table: str) -> list[str]:
    if table in MULTI_FILE_TABLES:
        return sorted(str(p.resolve()) for p in directory.glob(f"{table}-*.parquet"))
    return [str((directory / f"{table}.parquet").resolve())]


def _quote(text: str) -> str:
    return "'" + text.replace("'", "''") + "'"


def _base_view_sql(table: str, experiments: list[tuple[int, Path]]) -> str:
    if table == "experiments":
        files = ", ".join(_quote(str((d / "experiment.parquet").resolve())) for _, d in experiments)
        return f"SELECT * FROM read_parquet([{files}])"
    parts = []
    for experiment_id, d in experiments:
        files = ", ".join(_quote(f) for f in _files(d, table))
        parts.append(f"SELECT {experiment_id} AS experiment_id, * FROM read_parquet([{files}])")
    return "\nUNION ALL\n".join(parts)


def create_table_view(con: duckdb.DuckDBPyConnection, table: str, experiments: list[tuple[int, Path]]) -> None:
    """A view named ``table`` over its Parquet files in the experiment directories."""
    con.execute(f"CREATE OR REPLACE VIEW {table} AS\n{_base_view_sql(table, experiments)}")


def create_views(con: duckdb.DuckDBPyConnection, experiments: list[tuple[int, Path]]) -> None:
    """Create the stored-table views over ``(experiment id, directory)`` pairs and every object of ``sql/``."""
    for table in sorted(BASE_TABLES):
        create_table_view(con, table, experiments)
    sqlviews.create_all(con, BASE_TABLES)


def write_catalog(root: Path) -> None:
    """(Re)write the catalog of ``root`` atomically from its experiment directories."""
    root = root.resolve()
    dirs = experiment_dirs(root)
    tmp = root / f".{CATALOG}.{os.getpid()}.tmp"
    tmp.unlink(missing_ok=True)
    try:
        con = duckdb.connect(str(tmp))
        try:
            con.execute("CREATE TABLE cosydb_catalog (root VARCHAR, schema_version INTEGER, tool_version VARCHAR, "
                        "sql_fingerprint VARCHAR)")
            con.execute("INSERT INTO cosydb_catalog VALUES (?, ?, ?, ?)",
                        [str(root), SCHEMA_VERSION, __version__, sqlviews.fingerprint()])
            create_views(con, [(int(d.name), d) for d in dirs])
        finally:
            con.close()
        os.replace(tmp, root / CATALOG)
    finally:
        tmp.unlink(missing_ok=True)
        Path(str(tmp) + ".wal").unlink(missing_ok=True)


def connect(root: str | os.PathLike, read_only: bool = True) -> duckdb.DuckDBPyConnection:
    """Open the database at ``root``, rewriting its catalog first if the directory moved or
    the sql/ definitions changed since it was written."""
    root = Path(root)
    if not root.exists():
        raise CosyError(root, "no such database")
    if not is_database(root):
        raise CosyError(root, f"not a cosydb database (no {CATALOG})")
    catalog = str(root / CATALOG)
    try:
        con = duckdb.connect(catalog, read_only=True)
        cur = con.execute("SELECT * FROM cosydb_catalog")
        stored = dict(zip((d[0] for d in cur.description), cur.fetchone()))
        con.close()
    except duckdb.Error as error:
        raise CosyError(catalog, f"unreadable catalog ({error})") from None
    if stored["schema_version"] != SCHEMA_VERSION:
        raise CosyError(root, f"schema version {stored['schema_version']}; this cosydb reads version {SCHEMA_VERSION}")
    # a moved directory, or views written by another version of sql/ (e.g. a new column)
    if stored["root"] != str(root.resolve()) or stored.get("sql_fingerprint") != sqlviews.fingerprint():
        try:
            write_catalog(root)
        except OSError as error:
            raise CosyError(root, f"its catalog must be rewritten (moved, or written by another cosydb) "
                                  f"but cannot be: {error.strerror or error}") from None
    return duckdb.connect(catalog, read_only=read_only)


def next_experiment_id(root: Path) -> int:
    dirs = experiment_dirs(root)
    return int(dirs[-1].name) + 1 if dirs else 1


def experiment_names(root: Path) -> set[str]:
    names = set()
    for d in experiment_dirs(root):
        names.add(pq.read_table(d / "experiment.parquet", columns=["name"]).column(0)[0].as_py())
    return names


def read_only_session(con: duckdb.DuckDBPyConnection, root: str | os.PathLike) -> None:
    """Restrict ``con`` to reading: no file outside the database directory (the views read
    their Parquet files inside it), no ATTACH elsewhere, and no changing that back."""
    con.execute("SET allowed_directories = [?]", [str(Path(root).resolve()) + os.sep])
    con.execute("SET enable_external_access = false")
    con.execute("SET lock_configuration = true")
