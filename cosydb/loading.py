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
import dataclasses
import datetime as dt
import math
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
    staged: list[tuple[int, Path]],
    memory_limit: str | None = None,
    threads: int | None = None,
    say: Callable[[str], None] = lambda _text: None,
) -> tuple[list[list[dict]], dict, int]:
    """Materialise the derived tables of ``sql/`` for staged experiments ``staged``
    ((experiment id, directory)), then run ``sql/data_checks`` on each.
    DuckDB's budget: ``memory_limit`` (default ``resources.LOAD_MEMORY_LIMIT``; it spills to
    disk beyond it) and ``threads``. One experiment's partitioned tables are computed one
    location partition (``cosydb.partitions``) at a time. Several experiments (``_batches``:
    the loader wrote the same tables for each, and all fit one partition) are derived by
    the same statements, the model being keyed by ``experiment_id``: each table is written
    once with that column, then split into the experiments' directories.

    Returns each experiment's check rows, the seconds of both phases and of each derived
    table (``derive:<table>``), and the number of partitions.
    """
    (experiment_id, directory), several = staged[0], len(staged) > 1
    # several experiments: their tables keep experiment_id in a directory of the first one's
    scratch = directory / ".derived" if several else directory
    scratch.mkdir(exist_ok=True)
    con = interrupts.interruptible(duckdb.connect(config={"temp_directory": str(directory / ".spill")}))
    resources.apply(con, memory_limit, threads, default_memory=resources.LOAD_MEMORY_LIMIT)
    per_table: dict[str, float] = {}

    def relation(name: str, k: int = 0) -> str:
        """A derived table's rows written so far (partition ``k`` of a partitioned one)."""
        rows = f"read_parquet({database.quote(str(derived[name].path(scratch, k)))})"
        return f"(SELECT * FROM {rows})" if several else f"(SELECT {experiment_id} AS experiment_id, * FROM {rows})"

    def copy(sql: str, path: Path) -> None:
        kept = "*" if several else "* EXCLUDE (experiment_id)"
        statement = f"COPY (SELECT {kept} FROM (\n{sql}\n)) TO {database.quote(str(path))} ({PARQUET_OPTIONS})"
        resources.growing(con, lambda: con.execute(statement), path)

    def materialize(obj: sqlviews.SqlObject) -> None:
        say(f"deriving {obj.name} ({len(per_table) + 1} of {len(derived)} tables)")
        started = time.perf_counter()
        table = derived[obj.name]
        if obj.partitioned:
            for k, location_ids in enumerate(parts):
                copy(derive_partition(obj, k, location_ids), table.path(scratch, k))
        elif obj.sliced_by:
            (rows,) = con.execute(f"SELECT count(*) FROM {obj.sliced_by}").fetchone()
            count = max(1, math.ceil(rows / partitions.ROWS_PER_SLICE))
            for k in range(count):
                copy(
                    sqlviews.render_reading(obj, lambda name: name, sqlviews.slice_of(k, count)), table.path(scratch, k)
                )
        else:
            copy(obj.sql, table.path(scratch))
        # several experiments: the files in scratch carry experiment_id (a keyed table's view)
        view_of = dataclasses.replace(table, keyed=True) if several else table
        database.create_table_view(con, view_of, [(experiment_id, scratch)])
        per_table[f"derive:{obj.name}"] = time.perf_counter() - started

    def derive_partition(obj: sqlviews.SqlObject, k: int, location_ids: list[int]) -> str:
        """The SQL of partitioned table ``obj`` for partition ``k`` (the unit of work)."""
        ref = partitions.partition_ref(objects, location_ids, lambda name: relation(name, k))
        return sqlviews.render_reading(obj, ref)

    try:
        started = time.perf_counter()
        written = {name: t for name, t in tables.REGISTRY.items() if t.files(directory)}  # not yet load_warnings
        for table in written.values():
            database.create_table_view(con, table, staged)
        objects = {o.name: o for o in sqlviews.ordered(sqlviews.load_objects(), set(written))}
        derived = tables.derived()
        if several:  # all their locations (ids repeat across experiments) in one partition
            parts = [[r[0] for r in con.execute("SELECT DISTINCT location_id FROM events ORDER BY 1").fetchall()]]
        else:
            parts = partitions.plan(con, partitions.events_per_partition())
        # the tables and what they and the checks read (the views of the report are created in the views file)
        checks = _checks()
        checked = {name for obj in checks for name in obj.refs}
        made = sqlviews.create_all(con, set(written), materialize=materialize, wanted=set(derived) | checked)
        seconds = {"derive": time.perf_counter() - started} | per_table
        started = time.perf_counter()
        rows = _check_models(con, checks, say, staged)
        if several:
            _split(con, [derived[name] for name in made if name in derived], scratch, staged)
        return rows, seconds | {"checks": time.perf_counter() - started}, len(parts)
    finally:
        con.close()
        if several:
            shutil.rmtree(scratch, ignore_errors=True)


def _split(
    con: duckdb.DuckDBPyConnection, derived: list[tables.StoredTable], scratch: Path, staged: list[tuple[int, Path]]
) -> None:
    """Write each experiment's rows of the ``derived`` tables (in ``scratch``, with
    ``experiment_id``) into its directory, as a derive of that experiment alone writes them:
    one partitioned ``COPY`` per file, its file per experiment moved into place (an
    experiment without rows gets an empty file of the table's columns)."""
    for table in derived:
        for k, part in enumerate(table.files(scratch)):
            by_id = scratch / f".split-{part.stem}"
            con.execute(
                f"COPY (SELECT * FROM read_parquet({database.quote(str(part))})) TO {database.quote(str(by_id))} "
                f"({PARQUET_OPTIONS}, PARTITION_BY (experiment_id))"
            )
            for experiment_id, directory in staged:
                target = table.path(directory, k)
                written = sorted((by_id / f"experiment_id={experiment_id}").glob("*.parquet"))
                if len(written) == 1:
                    os.rename(written[0], target)
                else:  # none (no rows), or parts: the experiment's rows in one file
                    con.execute(
                        f"COPY (SELECT * EXCLUDE (experiment_id) FROM read_parquet({database.quote(str(part))}) "
                        f"WHERE experiment_id = {experiment_id}) TO {database.quote(str(target))} ({PARQUET_OPTIONS})"
                    )


def _check_models(
    con: duckdb.DuckDBPyConnection,
    checks: list[sqlviews.SqlObject],
    say: Callable[[str], None],
    staged: list[tuple[int, Path]],
) -> list[list[dict]]:
    """``_check_model`` of each of the ``staged`` experiments derived on ``con`` together."""
    if len(staged) == 1:
        return [_check_model(con, checks, say)]
    return [_check_model(con, checks, say, experiment_id) for experiment_id, _ in staged]


def _check_model(
    con: duckdb.DuckDBPyConnection,
    checks: list[sqlviews.SqlObject],
    say: Callable[[str], None],
    experiment_id: int | None = None,
) -> list[dict]:
    """The rows of ``checks`` (``_checks``: load warnings) on a connection with the model's
    views; ``experiment_id``: of several derived on ``con``, the one whose rows they read."""
    say("checking the model" if experiment_id is None else f"checking the model of experiment {experiment_id}")

    def of_experiment(name: str) -> str:
        return f"(SELECT * FROM {name} WHERE experiment_id = {experiment_id})"

    rows = []
    for obj in checks:
        sql = obj.sql if experiment_id is None else sqlviews.render_reading(obj, of_experiment)
        rows += con.execute(sql).to_arrow_table().to_pylist()
    return rows


def _checks() -> list[sqlviews.SqlObject]:
    """The queries of ``sql/data_checks``, rendered."""
    return sqlviews.ordered(sqlviews.load_objects("check"), database.object_names())


def _derive_on(
    engine, staged: list[tuple[int, Path]], say: Callable[[str], None]
) -> tuple[list[list[dict]], dict, int]:
    """``_derive`` with another engine computing the tables of ``staged`` experiments
    ((experiment id, directory)) together (``engine.derive``: Spark SQL); the checks then
    run on DuckDB over the files it wrote."""
    started = time.perf_counter()
    written = {name for name, t in tables.REGISTRY.items() if t.files(staged[0][1])}
    con = duckdb.connect()
    try:
        per_table = engine.derive(con, staged, written, say)
        seconds = {"derive": time.perf_counter() - started} | per_table
        started = time.perf_counter()
        rows = _check_models(con, _checks(), say, staged)
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


def load(source: str | os.PathLike, db: str | os.PathLike | None = None, name: str | None = None, **options) -> dict:
    """Load the trace or profile at ``source`` into the database ``db`` (``load_runs`` of one
    run; ``options``: its keywords ``workers``, ``on_wait``, ``memory_limit``, ``threads``,
    ``progress``, ``engine``, ``spark_master``, ``encoding``, as below).

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
    (meta,) = load_runs([source], db, [name], **options)
    return meta


def load_runs(
    sources: list[str | os.PathLike],
    db: str | os.PathLike | None = None,
    names: list[str | None] | None = None,
    workers: int | None = None,
    on_wait: Callable[[int | None], None] | None = None,
    memory_limit: str | None = None,
    threads: int | None = None,
    progress: Callable[[str], None] | None = None,
    engine: str = "duckdb",
    spark_master: str | None = None,
    encoding: str | None = None,
) -> list[dict]:
    """Load several traces or profiles into ``db`` as new experiments (ids in the order of
    ``sources``), committed together: all of them or none. ``db`` defaults to the first
    source's; ``names``: one per source, None for its default; the rest as for ``load``,
    which returns the one row this returns per source. Runs whose loader wrote the same
    tables and that together fit one location partition are derived by the same statements
    (``_batches``), on either engine: a run then costs little more than reading it."""
    engines.check(engine)
    resources.memory_limit(memory_limit), resources.threads(threads)  # bad values fail before any work
    partitions.events_per_partition()
    if not sources:
        raise CosyError("load", "no trace or profile given")
    names = list(names) if names is not None else [None] * len(sources)
    if len(names) != len(sources):
        raise CosyError("--name", f"{len(names)} names for {len(sources)} sources")
    runs = []
    for source, name in zip(sources, names):
        loader, anchor = resolve_source(source)
        runs.append((loader, anchor, name, _encoding_option(loader, encoding)))
    root = Path(db) if db is not None else default_db_path(runs[0][1])
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
                metas = _load_locked(runs, root, found, workers, (memory_limit, threads), progress, on)
        except BaseException:
            signum = interrupts.received()
            if signum is None:
                raise
            raise interrupts.Interrupted(
                signum, f"interrupted ({interrupts.name(signum)}); nothing was written"
            ) from None
        signum = interrupts.received()
        if signum is not None:  # it came while the commit was under way, which completed
            committed = ", ".join(f"{m['experiment_id']} '{m['name']}'" for m in metas)
            raise interrupts.Interrupted(
                signum,
                f"interrupted ({interrupts.name(signum)}) after experiment{'s' * (len(metas) > 1)} "
                f"{committed} {'were' if len(metas) > 1 else 'was'} committed to {root}",
            )
    return metas


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
    runs: list[tuple],
    root: Path,
    found: set[str] | None,
    workers: int | None,
    duckdb_resources: tuple = (None, None),
    progress: Callable[[str], None] | None = None,
    on=None,
) -> list[dict]:
    """The load itself, with the load lock of ``root`` held, on engine ``on`` (default DuckDB).
    ``runs``: (loader, anchor, name or None, what the loader's ``read`` takes besides:
    ``encoding``) per experiment; ``found``: the entries of ``root`` before this load, None
    if this load created it."""
    say = progress or (lambda _text: None)
    if not (database.is_database(root) or database.is_leftover(root)):  # replaced while this waited
        raise CosyError(root, f"exists and is not a cosydb database (no {database.VIEWS_FILE}); give a new directory")
    created = not database.is_database(root)  # new, or what a killed first load left
    staged: list[Path] = []
    moved: list[Path] = []
    try:
        database.remove_stale_staging(root)
        if created and database.experiment_dirs(root):  # a first load killed between rename and views file
            database.write_views(root)
            created = False
        first_id = database.next_experiment_id(root)
        taken = database.experiment_names(root)
        on = on or engines.DuckDBEngine()
        metas, results = [], []
        for experiment_id, (loader, anchor, name, read_options) in enumerate(runs, start=first_id):
            if name is not None and name in taken:
                raise CosyError(root, f"already holds an experiment named '{name}'")
            name = name or _unique_name(default_name(anchor, loader.IS_TRACE), taken)
            taken.add(name)  # the next runs' default names differ from it
            staging = database.staging_dir(root, experiment_id)
            staging.mkdir(parents=True)
            staged.append(staging)
            sink = tables.TableSink(staging)
            say(f"reading {anchor.name}")
            started = time.perf_counter()
            result = on.read(loader, anchor, sink, workers, read_options)
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
            metas.append(meta)
            results.append(result)
        derived: dict[int, tuple] = {}  # experiment id -> its check rows, the derive's seconds, partitions
        sizes = [(m["experiment_id"], d, r.number_of_events or 0) for m, d, r in zip(metas, staged, results)]
        for batch in _batches(sizes, partitions.events_per_partition()):
            if on.derive is None:
                checks, seconds, n_partitions = _derive(batch, *duckdb_resources, say)  # stops on a signal
            else:
                checks, seconds, n_partitions = _derive_on(on, batch, say)
            for (experiment_id, _), rows in zip(batch, checks):
                derived[experiment_id] = (rows, seconds, n_partitions)
        started = time.perf_counter()
        for meta, staging, result in zip(metas, staged, results):
            checks, seconds, n_partitions = derived[meta["experiment_id"]]
            meta["warnings"] = result.warnings + checks
            meta["phase_seconds"] = result.phase_seconds | seconds
            meta["partitions"] = n_partitions
            meta["loaded"] = result.loaded
            _write_own(staging, "load_warnings", meta["warnings"])
        say("committing")
        with database.locked(root, database.VIEWS_LOCK):
            with interrupts.deferred(check_after=False):  # once begun, the commit completes
                for meta, staging in zip(metas, staged):
                    final = database.experiment_dir(root, meta["experiment_id"])
                    os.rename(staging, final)
                    moved.append(final)
                database.write_views(root)  # the commit point
        for meta in metas:
            meta["phase_seconds"]["commit"] = time.perf_counter() - started
            meta["db"] = str(root)
    except BaseException:
        with interrupts.deferred(check_after=False):  # a second signal must not stop the cleanup
            for directory in staged + moved:
                shutil.rmtree(directory, ignore_errors=True)
            if created:
                _remove_created(root, found)
        raise
    return metas


def _batches(runs: list[tuple[int, Path, int]], limit: int) -> list[list[tuple[int, Path]]]:
    """``runs`` ((experiment id, staged directory, events)) in the groups ``_derive`` (or an
    engine's ``derive``) derives together, in load order: runs whose loader wrote the same
    tables (which tables a run has decides what is derived for it; today's loaders all
    write every table) and that hold at most ``limit`` events together (one location
    partition); a larger run is derived alone, in partitions."""
    open_batch: dict[frozenset, list] = {}  # the tables written -> the batch filling up and its events
    batches: list[list[tuple[int, Path]]] = []
    for experiment_id, directory, events in runs:
        key = frozenset(name for name, table in tables.REGISTRY.items() if table.files(directory))
        batch = open_batch.get(key)
        if batch is None or batch[1] + events > limit:
            batch = open_batch[key] = [[], 0]
            batches.append(batch[0])
        batch[0].append((experiment_id, directory))
        batch[1] += events
    return batches
