"""``cosydb load``: add one experiment to a database, all or nothing.

The experiment is written into a staging directory inside the database,
checked, moved to its final name and then made visible by atomically
replacing the views file. Any failure or interrupt before that last step removes
what this load wrote: an existing database is left as it was, a database directory
this load created is removed entirely, and from a directory it found without a
views file (empty, or what a killed load left) it removes what it added. A directory
holding anything else is refused before anything is written.

One load at a time per database: a load holds the database's load lock from
before it picks the experiment id until its commit; a second load waits (one line
on stderr). The commit (rename and views rewrite) also holds the views lock,
which ``report`` takes to store its results. SIGINT, SIGTERM and SIGHUP stop the
load, its reader processes and remove its staging directory (``cosydb.interrupts``);
what a load killed with kill -9 leaves (its staging directory, or a database
directory without a views file) the next load into the database removes.
"""

from __future__ import annotations

import codecs
import datetime as dt
import os
import shutil
import sys
import time
from collections.abc import Callable
from pathlib import Path

import duckdb
import pyarrow.parquet as pq

from . import (
    SCHEMA_VERSION,
    __version__,
    database,
    engines,
    interrupts,
    outputs,
    partitions,
    resources,
    sqlviews,
    tables,
)
from .errors import CosyError


def resolve_source(source: str | os.PathLike):
    """The loader (a module of ``loaders``) and the file it reads for a path to a file in a
    format cosydb reads, or to a run directory (its trace first, else its profile)."""
    from cosydb.loaders import loader_for

    path = Path(source)
    if not path.exists():
        raise CosyError(path, "no such file or directory")
    return loader_for(path)


def default_db_path(source: Path) -> Path:
    """``run/traces.otf2`` or ``run/profile.cubex`` -> ``./run.cosydb``."""
    return Path(f"{source.resolve().parent.name}.cosydb")


def default_name(source: Path, is_trace: bool) -> str:
    """A trace is named after its run directory, a profile or summary ``<run>-<file stem>``."""
    run = source.resolve().parent.name
    return run if is_trace else f"{run}-{source.stem}"


def _unique_name(wanted: str, taken: set[str]) -> str:
    name, k = wanted, 2
    while name in taken:
        name, k = f"{wanted}-{k}", k + 1
    return name


#: How ``load`` writes a derived table: Parquet 2's encodings (delta-packed integers,
#: byte-stream-split floats) before zstd write and read these sorted id and tick
#: columns faster than dictionaries do, in about half the space (bench/bench_load.py);
#: zstd at level 1, not DuckDB's 3: writing was a sixth of the derive's time, and level 1
#: derives miniFE's 5.9M events about 1 s faster in files 2 % larger (docs/performance.md).
PARQUET_OPTIONS = "FORMAT parquet, COMPRESSION zstd, COMPRESSION_LEVEL 1, PARQUET_VERSION v2"


def _derive(
    directory: Path,
    experiment_id: int,
    memory_limit: str | None = None,
    threads: int | None = None,
    say: Callable[[str], None] = lambda _text: None,
) -> tuple[list[dict], dict, int]:
    """Materialise the derived tables of ``sql/`` for one staged experiment, then run ``sql/data_checks``.
    DuckDB's budget: ``memory_limit`` (default ``resources.LOAD_MEMORY_LIMIT``; it spills to
    disk beyond it) and ``threads``. A partitioned table is computed one location
    partition (``cosydb.partitions``) at a time.

    Returns the check rows, the seconds of both phases and of each derived table
    (``derive:<table>``), and the number of partitions.
    """
    con = interrupts.interruptible(duckdb.connect(config={"temp_directory": str(directory / ".spill")}))
    resources.apply(con, memory_limit, threads, default_memory=resources.LOAD_MEMORY_LIMIT)
    experiments = [(experiment_id, directory)]
    per_table: dict[str, float] = {}

    def copy(sql: str, path: Path) -> None:
        target = str(path).replace("'", "''")
        con.execute(f"COPY (SELECT * EXCLUDE (experiment_id) FROM (\n{sql}\n)) TO '{target}' ({PARQUET_OPTIONS})")

    def materialize(obj: sqlviews.SqlObject) -> None:
        say(f"deriving {obj.name} ({len(per_table) + 1} of {len(derived)} tables)")
        started = time.perf_counter()
        table = derived[obj.name]
        if obj.partitioned:
            for k, location_ids in enumerate(parts):
                copy(derive_partition(obj, k, location_ids), table.path(directory, k))
        else:
            copy(obj.sql, table.path(directory))
        database.create_table_view(con, table, experiments)
        per_table[f"derive:{obj.name}"] = time.perf_counter() - started

    def derive_partition(obj: sqlviews.SqlObject, k: int, location_ids: list[int]) -> str:
        """The SQL of partitioned table ``obj`` for partition ``k`` (the unit of work)."""

        def partition_table(name: str) -> str:
            path = str(derived[name].path(directory, k)).replace("'", "''")
            return f"(SELECT {experiment_id} AS experiment_id, * FROM read_parquet('{path}'))"

        ref = partitions.partition_ref(objects, location_ids, partition_table)
        return sqlviews.render_reading(obj, ref)

    try:
        started = time.perf_counter()
        written = {name: t for name, t in tables.REGISTRY.items() if t.files(directory)}  # not yet load_warnings
        for table in written.values():
            database.create_table_view(con, table, experiments)
        objects = {o.name: o for o in sqlviews.ordered(sqlviews.load_objects(), set(written))}
        derived = tables.derived()
        parts = partitions.plan(con, partitions.events_per_partition())
        # the tables and what they and the checks read (the views of the report are created in the views file)
        checks = _checks()
        checked = {name for obj in checks for name in obj.refs}
        sqlviews.create_all(con, set(written), materialize=materialize, wanted=set(derived) | checked)
        seconds = {"derive": time.perf_counter() - started} | per_table
        started = time.perf_counter()
        return _check_model(con, checks, say), seconds | {"checks": time.perf_counter() - started}, len(parts)
    finally:
        con.close()


def _check_model(
    con: duckdb.DuckDBPyConnection, checks: list[sqlviews.SqlObject], say: Callable[[str], None]
) -> list[dict]:
    """The rows of ``checks`` (``_checks``: load warnings) on a connection with the model's views."""
    say("checking the model")
    rows = []
    for obj in checks:
        rows += con.execute(obj.sql).to_arrow_table().to_pylist()
    return rows


def _checks() -> list[sqlviews.SqlObject]:
    """The queries of ``sql/data_checks``, rendered."""
    return sqlviews.ordered(sqlviews.load_objects("check"), database.object_names())


def _derive_on(engine, directory: Path, experiment_id: int, say: Callable[[str], None]) -> tuple[list[dict], dict, int]:
    """``_derive`` with another engine computing the tables (``engine.derive``: Spark SQL);
    the checks then run on DuckDB over the files it wrote."""
    started = time.perf_counter()
    written = {name for name, t in tables.REGISTRY.items() if t.files(directory)}
    con = duckdb.connect()
    try:
        per_table = engine.derive(con, directory, experiment_id, written, say)
        seconds = {"derive": time.perf_counter() - started} | per_table
        started = time.perf_counter()
        rows = _check_model(con, _checks(), say)
    finally:
        con.close()
        engine.release()  # the tables are written: what the engine kept for them is freed
    return rows, seconds | {"checks": time.perf_counter() - started}, 1


def _write_own(directory: Path, name: str, rows: list[dict]) -> None:
    """Write a table that ``cosydb load`` itself writes (writer ``load`` in the registry)."""
    pq.write_table(
        tables.conform(name, [{k: row.get(k) for k in tables.schema(name).names} for row in rows]),
        tables.REGISTRY[name].path(directory),
    )


def _encoding_option(loader, encoding: str | None) -> dict:
    """The ``encoding=`` a loader's ``read`` takes (``NAMES_ENCODED``), checked; none where it is not given."""
    if encoding is None:
        return {}
    try:
        name = codecs.lookup(encoding).name
    except LookupError:
        raise CosyError(
            "--encoding", f"'{encoding}' is no encoding Python knows (e.g. utf-8, koi8-r, latin-1)"
        ) from None
    if not getattr(loader, "NAMES_ENCODED", False):
        raise CosyError(
            "--encoding", f"{loader.FILE_DOC} says how its names are encoded: only OTF (version 1) needs it"
        )
    return {"encoding": name}


def _say_waiting(root: Path, pid: int | None) -> None:
    holder = f" (pid {pid})" if pid else ""
    print(f"cosydb: waiting for another load into {root}{holder}", file=sys.stderr, flush=True)


def load(
    source: str | os.PathLike,
    db: str | os.PathLike | None = None,
    name: str | None = None,
    workers: int | None = None,
    on_wait: Callable[[int | None], None] | None = None,
    memory_limit: str | None = None,
    threads: int | None = None,
    progress: Callable[[str], None] | None = None,
    engine: str = "duckdb",
    spark_master: str | None = None,
    encoding: str | None = None,
) -> dict:
    """Load the trace or profile at ``source`` into the database ``db``.

    Returns the new experiment's row plus ``db``, ``warnings``, ``phase_seconds``
    (wall-clock seconds per load phase) and ``partitions`` (location partitions derived).
    If another load into ``db`` is under way this waits for it; ``on_wait(pid of the
    other load)`` is called once then (default: a line on stderr). In the main thread, SIGINT, SIGTERM and SIGHUP
    raise ``interrupts.Interrupted`` once the load is undone ("nothing was written").
    ``memory_limit`` and ``threads``: DuckDB's resources while deriving (see ``resources``).
    ``progress(text)`` is told each phase as it begins (reading, deriving table k of n, ...).
    ``engine='spark'``: an OTF2 trace's locations are decoded in Spark tasks and the model
    is derived with Spark SQL on ``spark_master`` (default local[*]), into the same files.
    ``encoding``: of the names of a format that does not say it (an OTF v1 trace; default UTF-8).
    """
    engines.check(engine)
    resources.memory_limit(memory_limit), resources.threads(threads)  # bad values fail before any work
    partitions.events_per_partition()
    loader, anchor = resolve_source(source)
    options = _encoding_option(loader, encoding)
    root = Path(db) if db is not None else default_db_path(anchor)
    link = outputs.broken_link(root)
    if link:
        raise CosyError(root, link)
    if root.exists() and not (database.is_database(root) or database.is_leftover(root)):
        raise CosyError(root, f"exists and is not a cosydb database (no {database.VIEWS_FILE}); give a new directory")
    found = set(os.listdir(root)) if root.is_dir() else set()
    if on_wait is None:

        def on_wait(pid):
            _say_waiting(root, pid)

    on = engines.start(engine, spark_master)  # before any file is made
    with interrupts.handled():
        try:
            with database.locked(root, database.LOAD_LOCK, create=True, on_wait=on_wait) as made:
                found = None if made else found
                meta = _load_locked(
                    loader, anchor, root, found, name, workers, (memory_limit, threads), progress, on, options
                )
        except BaseException:
            signum = interrupts.received()
            if signum is None:
                raise
            raise interrupts.Interrupted(
                signum, f"interrupted ({interrupts.name(signum)}); nothing was written"
            ) from None
        signum = interrupts.received()
        if signum is not None:  # it came while the commit was under way, which completed
            raise interrupts.Interrupted(
                signum,
                f"interrupted ({interrupts.name(signum)}) after experiment "
                f"{meta['experiment_id']} '{meta['name']}' was committed to {root}",
            )
    return meta


def _remove_created(root: Path, found: set[str] | None) -> None:
    """Undo a failed first load into ``root``: remove ``root`` if it created it (``found`` is
    None), else the entries it added to the directory it found (holding ``found``)."""
    if found is None:
        shutil.rmtree(root, ignore_errors=True)
        return
    for entry in set(os.listdir(root)) - found:
        path = root / entry
        if path.is_dir() and not path.is_symlink():
            shutil.rmtree(path, ignore_errors=True)
        else:
            path.unlink(missing_ok=True)


def _load_locked(
    loader,
    anchor: Path,
    root: Path,
    found: set[str] | None,
    name: str | None,
    workers: int | None,
    duckdb_resources: tuple = (None, None),
    progress: Callable[[str], None] | None = None,
    on=None,
    read_options: dict | None = None,
) -> dict:
    """The load itself, with the load lock of ``root`` held, on engine ``on`` (default DuckDB).
    ``found``: the entries of ``root`` before this load, None if this load created it;
    ``read_options``: what the loader's ``read`` takes besides (``encoding``)."""
    say = progress or (lambda _text: None)
    if not (database.is_database(root) or database.is_leftover(root)):  # replaced while this waited
        raise CosyError(root, f"exists and is not a cosydb database (no {database.VIEWS_FILE}); give a new directory")
    created = not database.is_database(root)  # new, or what a killed first load left
    staging = final = None
    moved = False
    try:
        database.remove_stale_staging(root)
        if created and database.experiment_dirs(root):  # a first load killed between rename and views file
            database.write_views(root)
            created = False
        experiment_id = database.next_experiment_id(root)
        taken = database.experiment_names(root)
        if name is not None and name in taken:
            raise CosyError(root, f"already holds an experiment named '{name}'")
        name = name or _unique_name(default_name(anchor, loader.IS_TRACE), taken)
        staging = database.staging_dir(root, experiment_id)
        final = database.experiment_dir(root, experiment_id)
        staging.mkdir(parents=True)
        sink = tables.TableSink(staging)
        say(f"reading {anchor.name}")
        started = time.perf_counter()
        on = on or engines.DuckDBEngine()
        result = on.read(loader, anchor, sink, workers, read_options or {})
        sink.finish()
        if result.number_of_events:
            rate = result.number_of_events / max(time.perf_counter() - started, 1e-9)
            say(f"read {result.loaded} ({rate:,.0f} events/s); deriving the model")
        meta = dict(
            experiment_id=experiment_id,
            name=name,
            load_time=dt.datetime.now(dt.timezone.utc).isoformat(timespec="seconds"),
            tool_version=__version__,
            schema_version=SCHEMA_VERSION,
            is_profile=not loader.IS_TRACE,
            format=loader.FORMAT,
            **result.experiment_columns(),
        )
        _write_own(staging, "experiments", [meta])
        if on.derive is not None:
            checks, seconds, n_partitions = _derive_on(on, staging, experiment_id, say)
        else:
            checks, seconds, n_partitions = _derive(staging, experiment_id, *duckdb_resources, say)  # stops on a signal
        warnings = result.warnings + checks
        phase_seconds = result.phase_seconds | seconds
        started = time.perf_counter()
        _write_own(staging, "load_warnings", warnings)
        say("committing")
        with database.locked(root, database.VIEWS_LOCK):
            with interrupts.deferred(check_after=False):  # once begun, the commit completes
                os.rename(staging, final)
                moved = True
                database.write_views(root)  # the commit point
        phase_seconds["commit"] = time.perf_counter() - started
    except BaseException:
        with interrupts.deferred(check_after=False):  # a second signal must not stop the cleanup
            if staging is not None:
                shutil.rmtree(staging, ignore_errors=True)
            if moved:
                shutil.rmtree(final, ignore_errors=True)
            if created:
                _remove_created(root, found)
        raise
    meta["db"] = str(root)
    meta["loaded"] = result.loaded
    meta["warnings"] = warnings
    meta["phase_seconds"] = phase_seconds
    meta["partitions"] = n_partitions
    return meta
