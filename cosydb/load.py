"""``cosydb load``: add one experiment to a database, all or nothing.

The experiment is written into a staging directory inside the database,
checked, moved to its final name and then made visible by atomically
replacing the catalog. Any failure or interrupt before that last step removes
what this load wrote: an existing database is left as it was, and a database
this load created is removed entirely.

One load at a time per database: a load holds the database's load lock from
before it picks the experiment id until its commit; a second load waits (one line
on stderr). The commit (rename and catalog rewrite) also holds the catalog lock,
which ``report`` takes to rewrite the catalog. SIGINT, SIGTERM and SIGHUP stop the
load, its reader processes and remove its staging directory (``cosydb.interrupts``);
what a load killed with kill -9 leaves (its staging directory, or a database
directory without a catalog) the next load into the database removes.
"""

from __future__ import annotations

import datetime as dt
import os
import shutil
import sys
import time
from pathlib import Path
from typing import Callable

import duckdb
import pyarrow as pa
import pyarrow.parquet as pq

from . import SCHEMA_VERSION, __version__, database, interrupts, resources, sqlviews
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


def _derive(directory: Path, experiment_id: int, memory_limit: str | None = None,
            threads: int | None = None) -> tuple[list[dict], dict]:
    """Materialise the derived tables of ``sql/`` for one staged experiment, then run ``sql/checks``.
    DuckDB's budget: ``memory_limit`` (default ``resources.LOAD_MEMORY_LIMIT``; it spills to
    disk beyond it) and ``threads``.

    Returns the check rows and the seconds of both phases.
    """
    con = duckdb.connect(config={"temp_directory": str(directory / ".spill")})
    resources.apply(con, memory_limit, threads, default_memory=resources.LOAD_MEMORY_LIMIT)
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


def _say_waiting(root: Path, pid: int | None) -> None:
    holder = f" (pid {pid})" if pid else ""
    print(f"cosydb: waiting for another load into {root}{holder}", file=sys.stderr, flush=True)


def load(source: str | os.PathLike, db: str | os.PathLike | None = None, name: str | None = None,
         workers: int | None = None, on_wait: Callable[[int | None], None] | None = None,
         memory_limit: str | None = None, threads: int | None = None) -> dict:
    """Load the trace or profile at ``source`` into the database ``db``.

    Returns the new experiment's row plus ``db``, ``warnings`` and
    ``phase_seconds`` (wall-clock seconds per load phase). If another load into ``db``
    is under way this waits for it; ``on_wait(pid of the other load)`` is called once
    then (default: a line on stderr). In the main thread, SIGINT, SIGTERM and SIGHUP
    raise ``interrupts.Interrupted`` once the load is undone ("nothing was written").
    ``memory_limit`` and ``threads``: DuckDB's resources while deriving (see ``resources``).
    """
    resources.memory_limit(memory_limit), resources.threads(threads)  # bad values fail before any work
    anchor, kind = resolve_source(source)
    root = Path(db) if db is not None else default_db_path(anchor)
    if root.exists() and not (database.is_database(root) or database.is_leftover(root)):
        raise CosyError(root, "exists and is not a cosydb database")
    if on_wait is None:
        def on_wait(pid):
            _say_waiting(root, pid)
    with interrupts.handled():
        try:
            with database.locked(root, database.LOAD_LOCK, create=True, on_wait=on_wait):
                meta = _load_locked(anchor, kind, root, name, workers, (memory_limit, threads))
        except BaseException:
            signum = interrupts.received()
            if signum is None:
                raise
            raise interrupts.Interrupted(signum, f"interrupted ({interrupts.name(signum)}); "
                                                 "nothing was written") from None
        signum = interrupts.received()
        if signum is not None:  # it came while the commit was under way, which completed
            raise interrupts.Interrupted(signum, f"interrupted ({interrupts.name(signum)}) after experiment "
                                                 f"{meta['experiment_id']} '{meta['name']}' was committed to {root}")
    return meta


def _load_locked(anchor: Path, kind: str, root: Path, name: str | None, workers: int | None,
                 duckdb_resources: tuple = (None, None)) -> dict:
    """The load itself, with the load lock of ``root`` held."""
    from cosydb.loaders.cube_profile import read_profile
    from cosydb.loaders.otf2_trace import load_trace
    from cosydb.loaders.summary_input import read_summary
    from cosydb.loaders.tables import EXPERIMENT, LOAD_WARNINGS

    if not (database.is_database(root) or database.is_leftover(root)):  # replaced while this waited
        raise CosyError(root, "exists and is not a cosydb database")
    created = not database.is_database(root)  # new, or what a killed first load left
    staging = final = None
    moved = False
    try:
        database.remove_stale_staging(root)
        if created and database.experiment_dirs(root):  # a first load killed between rename and catalog
            database.write_catalog(root)
            created = False
        experiment_id = database.next_experiment_id(root)
        taken = database.experiment_names(root)
        if name is not None and name in taken:
            raise CosyError(root, f"already holds an experiment named '{name}'")
        name = name or _unique_name(default_name(anchor, kind), taken)
        staging = database.staging_dir(root, experiment_id)
        final = root / database.EXPERIMENTS / str(experiment_id)
        staging.mkdir(parents=True)
        if kind == "otf2":
            with interrupts.deferred():  # OTF2 runs Python callbacks: a signal is acted on between them
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
        checks, seconds = _derive(staging, experiment_id, *duckdb_resources)  # DuckDB stops its query on a signal
        warnings = result["warnings"] + checks
        phase_seconds = result["phase_seconds"] | seconds
        started = time.perf_counter()
        pq.write_table(pa.Table.from_pylist(warnings, schema=LOAD_WARNINGS), staging / "load_warnings.parquet")
        with database.locked(root, database.CATALOG_LOCK):
            with interrupts.deferred(check_after=False):  # once begun, the commit completes
                os.rename(staging, final)
                moved = True
                database.write_catalog(root)  # the commit point
        phase_seconds["commit"] = time.perf_counter() - started
    except BaseException:
        with interrupts.deferred(check_after=False):  # a second signal must not stop the cleanup
            if staging is not None:
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
