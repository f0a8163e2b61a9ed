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



def resolve_source(source: str | os.PathLike) -> tuple[Path, str]:
    """The file to read and its format (``otf2``, ``cube4`` or ``summary``) for a path to a
    trace's anchor file, a CUBE4 profile, an ASL summary (``.json`` / ``.csv``), or a run
    directory (its ``traces.otf2``, else its ``profile.cubex``)."""
    from cosydb.loaders.cube_profile import is_profile

    path = Path(source)
    if not path.exists():
        raise CosyError(path, "no such file or directory")
    if path.is_dir():
        for name, kind in (("traces.otf2", "otf2"), ("profile.cubex", "cube4")):
            if (path / name).is_file():
                return path / name, kind
        raise CosyError(path, "directory holds no traces.otf2 anchor file and no profile.cubex")
    if path.suffix.lower() in (".json", ".csv"):
        return path, "summary"
    return path, "cube4" if is_profile(path) else "otf2"


def default_db_path(source: Path) -> Path:
    """``run/traces.otf2`` or ``run/profile.cubex`` -> ``./run.cosydb``."""
    return Path(f"{source.resolve().parent.name}.cosydb")


def default_name(source: Path, kind: str) -> str:
    """A trace is named after its run directory, a profile or summary ``<run>-<file stem>``."""
    run = source.resolve().parent.name
    return run if kind == "otf2" else f"{run}-{source.stem}"


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


def _write_tables(directory: Path, tables: dict) -> None:
    """Write the loader's tables (lists of row dicts, or Arrow tables) with the schemas of
    ``loaders.tables``, then every other raw table and the result tables empty."""
    from cosydb.loaders.tables import SCHEMAS

    for table, data in tables.items():
        if not isinstance(data, pa.Table):
            data = pa.Table.from_pylist(data, schema=SCHEMAS[table])
        pq.write_table(data, directory / f"{table}.parquet")
    for table, schema in (SCHEMAS | database.RESULT_TABLES).items():
        pattern = f"{table}-*.parquet" if table in database.MULTI_FILE_TABLES else f"{table}.parquet"
        if not any(directory.glob(pattern)):
            pq.write_table(schema.empty_table(), directory / pattern.replace("*", "0"))


def load(source: str | os.PathLike, db: str | os.PathLike | None = None, name: str | None = None,
         workers: int | None = None) -> dict:
    """Load the trace or profile at ``source`` into the database ``db``.

    Returns the new experiment's row plus ``db``, ``warnings`` and
    ``phase_seconds`` (wall-clock seconds per load phase).
    """
    from cosydb.loaders.cube_profile import read_profile
    from cosydb.loaders.otf2_trace import load_trace
    from cosydb.loaders.summary_input import read_summary
    from cosydb.loaders.tables import EXPERIMENT, LOAD_WARNINGS

    anchor, kind = resolve_source(source)
    root = Path(db) if db is not None else default_db_path(anchor)
    created = not root.exists()
    if not created and not database.is_database(root):
        raise CosyError(root, "exists and is not a cosydb database")
    experiment_id = database.next_experiment_id(root) if not created else 1
    taken = set() if created else database.experiment_names(root)
    if name is not None and name in taken:
        raise CosyError(root, f"already holds an experiment named '{name}'")
    name = name or _unique_name(default_name(anchor, kind), taken)

    staging = root / database.EXPERIMENTS / f".staging-{experiment_id}-{os.getpid()}"
    final = root / database.EXPERIMENTS / str(experiment_id)
    moved = False
    try:
        staging.mkdir(parents=True)
        if kind == "otf2":
            result = load_trace(anchor, staging, workers)
        else:
            result = (read_profile if kind == "cube4" else read_summary)(anchor)
        _write_tables(staging, result["tables"])
        meta = dict(
            experiment_id=experiment_id, name=name,
            load_time=dt.datetime.now(dt.timezone.utc).isoformat(timespec="seconds"),
            tool_version=__version__, schema_version=SCHEMA_VERSION, is_profile=kind != "otf2",
            **result["meta"],
        )
        pq.write_table(pa.Table.from_pylist([meta], schema=EXPERIMENT), staging / "experiment.parquet")
        checks, seconds = _derive(staging, experiment_id)
        warnings = result["warnings"] + checks
        phase_seconds = result["phase_seconds"] | seconds
        started = time.perf_counter()
        pq.write_table(pa.Table.from_pylist(warnings, schema=LOAD_WARNINGS), staging / "load_warnings.parquet")
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

