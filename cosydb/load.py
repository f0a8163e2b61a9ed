"""``cosydb load``: add one experiment to a database, all or nothing.

The experiment is written into a staging directory inside the database,
checked, moved to its final name and then made visible by atomically
replacing the catalog. Any failure or interrupt before that last step removes
what this load wrote: an existing database is left as it was, and a database
this load created is removed entirely.
"""

from __future__ import annotations

import datetime as dt
import os
import shutil
import time
from pathlib import Path

import duckdb
import pyarrow as pa
import pyarrow.parquet as pq

from . import SCHEMA_VERSION, __version__, database, sqlviews
from .errors import CosyError

WARNING_SCHEMA = pa.schema([("check", pa.string()), ("location_id", pa.int64()),
                            ("count", pa.int64()), ("detail", pa.string())])


def default_db_path(source: str | os.PathLike) -> Path:
    """``run/traces.otf2`` or ``run/`` -> ``./run.cosydb``."""
    path = Path(source).resolve()
    run = path if path.is_dir() else path.parent
    return Path(f"{run.name}.cosydb")


def _unique_name(wanted: str, taken: set[str]) -> str:
    name, k = wanted, 2
    while name in taken:
        name, k = f"{wanted}-{k}", k + 1
    return name


#: DuckDB's memory budget while deriving tables; it spills to disk beyond this.
MEMORY_LIMIT = "640MB"


def _derive(directory: Path, experiment_id: int) -> tuple[list[dict], dict]:
    """Materialise the derived tables of ``sql/`` for one staged experiment, then run ``sql/checks``.

    Returns the check rows and the seconds of both phases.
    """
    con = duckdb.connect(config={"memory_limit": MEMORY_LIMIT, "temp_directory": str(directory / ".spill")})
    experiments = [(experiment_id, directory)]

    def materialize(obj: sqlviews.SqlObject) -> None:
        target = str(directory / f"{obj.name}.parquet").replace("'", "''")
        con.execute(f"COPY (SELECT * EXCLUDE (experiment_id) FROM (\n{obj.sql}\n)) "
                    f"TO '{target}' (FORMAT parquet, COMPRESSION zstd)")
        database.create_table_view(con, obj.name, experiments)

    try:
        started = time.perf_counter()
        for table in sorted(database.RAW_TABLES):
            database.create_table_view(con, table, experiments)
        sqlviews.create_all(con, database.RAW_TABLES, materialize=materialize)
        seconds = {"derive": time.perf_counter() - started}
        started = time.perf_counter()
        rows = []
        for obj in sqlviews.ordered(sqlviews.load_objects("cosydb.sql.checks"),
                                    database.object_names()):
            rows += con.execute(obj.sql).to_arrow_table().to_pylist()
        seconds["checks"] = time.perf_counter() - started
        return rows, seconds
    finally:
        con.close()


def load(source: str | os.PathLike, db: str | os.PathLike | None = None, name: str | None = None,
         workers: int | None = None) -> dict:
    """Load the trace at ``source`` into the database ``db``.

    Returns the new experiment's row plus ``db``, ``warnings`` and
    ``phase_seconds`` (wall-clock seconds per load phase).
    """
    from cosydb.loaders.otf2_trace import load_trace, resolve_anchor

    anchor = resolve_anchor(source)
    root = Path(db) if db is not None else default_db_path(anchor)
    created = not root.exists()
    if not created and not database.is_database(root):
        raise CosyError(root, "exists and is not a cosydb database")
    experiment_id = database.next_experiment_id(root) if not created else 1
    taken = set() if created else database.experiment_names(root)
    if name is not None and name in taken:
        raise CosyError(root, f"already holds an experiment named '{name}'")
    name = name or _unique_name(anchor.resolve().parent.name, taken)

    staging = root / database.EXPERIMENTS / f".staging-{experiment_id}-{os.getpid()}"
    final = root / database.EXPERIMENTS / str(experiment_id)
    moved = False
    try:
        staging.mkdir(parents=True)
        result = load_trace(anchor, staging, workers)
        for table, data in result["tables"].items():
            pq.write_table(data, staging / f"{table}.parquet")
        meta = dict(
            experiment_id=experiment_id, name=name,
            load_time=dt.datetime.now(dt.timezone.utc).isoformat(timespec="seconds"),
            tool_version=__version__, schema_version=SCHEMA_VERSION, is_profile=False,
            **result["meta"],
        )
        pq.write_table(pa.Table.from_pylist([meta]), staging / "experiment.parquet")
        pq.write_table(WARNING_SCHEMA.empty_table(), staging / "load_warnings.parquet")
        for table, schema in database.RESULT_TABLES.items():
            pq.write_table(schema.empty_table(), staging / f"{table}.parquet")
        checks, seconds = _derive(staging, experiment_id)
        warnings = result["warnings"] + checks
        phase_seconds = result["phase_seconds"] | seconds
        started = time.perf_counter()
        pq.write_table(pa.Table.from_pylist(warnings, schema=WARNING_SCHEMA), staging / "load_warnings.parquet")
        os.rename(staging, final)
        moved = True
        database.write_catalog(root)  # the commit point
        phase_seconds["commit"] = time.perf_counter() - started
    except BaseException:
        shutil.rmtree(staging, ignore_errors=True)
        if moved:
            shutil.rmtree(final, ignore_errors=True)
        if created:
            shutil.rmtree(root, ignore_errors=True)
        raise
    meta["db"] = str(root)
    meta["warnings"] = warnings
    meta["phase_seconds"] = phase_seconds
    return meta

