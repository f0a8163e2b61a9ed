"""The on-disk database: experiment directories of Parquet files plus a DuckDB views file.

Layout::

    run.cosydb/
        cosydb.duckdb                 views file: one view per table, the sql/ views and macros
        experiments/<id>/
            experiment.parquet        one row: name, source, clock, tool and schema version
            events-<k>.parquet        events sorted by location then seq (one file per reader)
            metric_values-<k>.parquet
            <definition table>.parquet, record_counts.parquet, load_warnings.parquet
            cnodes.parquet, profile_metrics.parquet, profile_values.parquet   (profiles; empty for traces)
            summary_regions.parquet, sm_sums.parquet, ... (ASL summary input; empty otherwise)
            <derived table>.parquet   sql/ objects materialised at load (messages, callpaths, ...)
            <derived table>-<k>.parquet   partitioned ones, one file per location partition (region_instances, ...)

        .load.lock                    held (flock) by the one load at work (empty file)
        .views.lock                   held while an experiment is committed or the views file rewritten
        experiments/.staging-<id>-<pid>/   a load at work (or killed: removed by the next load)

The views file holds no data: its views read the Parquet files by their path under
``cosydb_root()``, a macro of the views file that gives the directory's absolute path,
so ``duckdb run.cosydb/cosydb.duckdb`` works in the stock DuckDB shell. If the
directory is moved, or the views of sql/ changed, cosydb rewrites the views file the
next time it opens it.

Writing a views file binds every view (about 0.1 s). The files written are kept for reuse,
named by the digest of their statements (``_reused``): a database whose experiments have
the same files gets a copy with its own root and catalog row.
"""

from __future__ import annotations

import contextlib
import fcntl
import hashlib
import os
import shlex
import shutil
import threading
import weakref
from collections.abc import Callable
from pathlib import Path

import duckdb
import pyarrow as pa
import pyarrow.parquet as pq

from . import SCHEMA_VERSION, __version__, docs, interrupts, outputs, resources, sqlviews, tables
from .errors import CosyError

VIEWS_FILE = "cosydb.duckdb"
EXPERIMENTS = "experiments"
#: Lock files (``fcntl.flock``): one load at a time; one writer of the views file at a time.
LOAD_LOCK = ".load.lock"
VIEWS_LOCK = ".views.lock"
STAGING_PREFIX = ".staging-"
#: The views file's macro that holds the database directory's absolute path.
ROOT_MACRO = "cosydb_root"
#: Views files kept for reuse (``_reused``), the most recently used first.
KEPT_VIEWS_FILES = 16

RESULTS_TABLE = "property_results"
CUBE_TABLE = "severity_cube"
CATALOG_TABLE = "property_catalog"
EVALUATION_TABLE = "property_evaluation"

#: A read-only connection (``connect``) is an in-memory instance with the views file attached
#: read-only under its own name: the tables it makes are in ``memory.main``, shared by the
#: instance's cursors (``cursors``), which temporary tables are not; names resolve there first.
SEARCH_PATH = "memory.main,cosydb.main"
_SHARES_TABLES: weakref.WeakSet = weakref.WeakSet()


def base_tables() -> set[str]:
    """Every stored table (cosydb.tables): what the views file has a Parquet view of."""
    return set(tables.stored())


def object_names() -> set[str]:
    """Every stored table and every object of ``sql/`` and ``reports/`` (their layers decide who reads what)."""
    return base_tables() | set(sqlviews.load_objects())


def view_names() -> set[str]:
    """The objects of ``sql/`` and ``reports/`` that are plain views (computed whenever they are read)."""
    return {name for name, obj in sqlviews.load_objects().items() if obj.kind == "view"} - base_tables()


def is_database(path: Path) -> bool:
    return (path / VIEWS_FILE).is_file()


def experiment_dir(root: Path, experiment_id: int) -> Path:
    """The directory of a committed experiment's files."""
    return Path(root) / EXPERIMENTS / str(experiment_id)


def experiment_dirs(root: Path) -> list[Path]:
    """Committed experiment directories, in id order (staging directories start with '.')."""
    base = root / EXPERIMENTS
    if not base.is_dir():
        return []
    return sorted((d for d in base.iterdir() if d.is_dir() and d.name.isdigit()), key=lambda d: int(d.name))


def quote(text: str) -> str:
    """``text`` as an SQL string literal (a path or a name read from outside)."""
    return "'" + text.replace("'", "''") + "'"


def _base_view_sql(table: tables.StoredTable, experiments: list[tuple[int, Path]], root: Path | None = None) -> str:
    """``table``'s rows in the experiment directories, by absolute path, or by path under
    ``ROOT_MACRO`` when the directories are in database ``root``."""

    def files(directory: Path) -> str:
        if root is None:
            return ", ".join(quote(str(p.resolve())) for p in table.files(directory))
        return ", ".join(f"{ROOT_MACRO}() || {quote('/' + str(p.relative_to(root)))}" for p in table.files(directory))

    if table.keyed:
        return f"SELECT * FROM read_parquet([{', '.join(files(d) for _, d in experiments)}])"
    return "\nUNION ALL\n".join(
        f"SELECT {experiment_id} AS experiment_id, * FROM read_parquet([{files(d)}])"
        for experiment_id, d in experiments
    )


def table_view(
    table: tables.StoredTable, experiments: list[tuple[int, Path]], temporary: bool = False, root: Path | None = None
) -> str:
    """The statement creating a view named like ``table`` over its Parquet files in the
    experiment directories (``temporary``: of this connection only, shadowing the
    database's; ``root``: paths under ``ROOT_MACRO``, as in a views file)."""
    kind = "TEMP VIEW" if temporary else "VIEW"
    return f"CREATE OR REPLACE {kind} {table.name} AS\n{_base_view_sql(table, experiments, root)}"


def create_table_view(
    con: duckdb.DuckDBPyConnection,
    table: tables.StoredTable,
    experiments: list[tuple[int, Path]],
    temporary: bool = False,
) -> None:
    """Create ``table_view`` on ``con``."""
    con.execute(table_view(table, experiments, temporary))


@contextlib.contextmanager
def experiments_only(con: duckdb.DuckDBPyConnection, experiment_ids: list[int], names: set[str] | None = None):
    """Inside the block, the stored tables on ``con`` (a database's connection; ``names``: those
    tables only, default all) read only the files of ``experiment_ids``: temporary views of
    the same names shadow the database's, whose union over every experiment each query
    would otherwise bind (in a database of eight small runs, the catalog's evaluation of one
    took 0.68-0.77 s without this, 0.50-0.54 s with it, 0.44-0.51 s in its own database).
    The views of the views file (sql/, reports/) bind their tables there, unshadowed.
    Nothing is shadowed when the database holds no other experiment. On a connection that
    ``shares_tables``, the views are in ``memory.main``, where its cursors see them too."""
    (root,) = con.execute("SELECT root FROM cosydb_catalog").fetchone()
    shared = shares_tables(con)  # then the views are seen by its cursors: in memory.main, not temporary
    ids = set(experiment_ids)
    held = [(int(d.name), d) for d in experiment_dirs(Path(root))]
    if {i for i, _ in held} <= ids:
        yield con
        return
    shadowed = []
    try:
        for table in tables.stored().values():
            if names is not None and table.name not in names:
                continue
            readable = [(i, d) for i, d in held if i in ids and table.files(d)]
            if readable:  # else the database's view, which has no rows of these experiments either
                create_table_view(con, table, readable, temporary=not shared)
                shadowed.append(table.name)
        yield con
    finally:
        for name in shadowed:
            con.execute(f"DROP VIEW IF EXISTS {'memory' if shared else 'temp'}.main.{name}")


def _views_statements(root: Path) -> list[str]:
    """What a views file of database ``root`` holds after its catalog row and ``ROOT_MACRO``:
    the stored-table views over its experiment directories (paths under the macro), every
    object of ``sql/`` and ``reports/``, and their comments (``docs.comment_statements``)."""
    experiments = [(int(d.name), d) for d in experiment_dirs(root)]
    stored = tables.stored()
    return [
        *(table_view(stored[name], experiments, root=root) for name in sorted(stored)),
        *(sqlviews.creation(obj) for obj in sqlviews.ordered(sqlviews.load_objects(), set(stored)) if not obj.is_table),
        ";\n".join(docs.comment_statements()),
    ]


def write_views(root: Path) -> None:
    """(Re)write the views file of ``root`` atomically from its experiment directories.

    Under the views lock, so that two writers (a load committing, a connection rewriting
    the views of a moved database) cannot replace each other's views file with one that
    misses an experiment;
    readers see the old or the new file, never a half-written one (rename)."""
    root = Path(root).resolve()
    with locked(root, VIEWS_LOCK):
        _write_views(root)


def _write_views(root: Path) -> None:
    tmp = root / f".{VIEWS_FILE}.{os.getpid()}.tmp"
    statements = _views_statements(root)
    digest = hashlib.sha256("\0".join([duckdb.__version__, *statements]).encode()).hexdigest()
    folder = _kept_dir()
    try:
        if folder is None or not _reused(folder / f"views-{digest}.duckdb", tmp, root):
            _remove_database_file(tmp)
            con = duckdb.connect(str(tmp))
            try:
                con.execute("BEGIN")  # one transaction: one write of the file, not one per statement
                _catalog_row(con, root, create=True)
                for statement in statements:
                    con.execute(statement)
                con.execute("COMMIT")
            finally:
                con.close()
            if folder is not None:
                _keep(tmp, folder, digest)
        os.replace(tmp, root / VIEWS_FILE)
    finally:
        _remove_database_file(tmp)


def _catalog_row(con: duckdb.DuckDBPyConnection, root: Path, create: bool) -> None:
    """The views file's ``cosydb_catalog`` row and ``ROOT_MACRO`` for database ``root``
    (``create``: the table too)."""
    if create:
        con.execute(
            "CREATE TABLE cosydb_catalog (root VARCHAR, schema_version INTEGER, tool_version VARCHAR, "
            "sql_fingerprint VARCHAR)"
        )
    con.execute("DELETE FROM cosydb_catalog")
    con.execute(
        "INSERT INTO cosydb_catalog VALUES (?, ?, ?, ?)",
        [str(root), SCHEMA_VERSION, __version__, sqlviews.fingerprint()],
    )
    con.execute(f"CREATE OR REPLACE MACRO {ROOT_MACRO}() AS {quote(str(root))}")


def _kept_dir() -> Path | None:
    """Where views files are kept for reuse: ``$COSYDB_CACHE_DIR``, else cosydb's directory
    in the user's cache directory (``$XDG_CACHE_HOME`` if an absolute path, as the XDG
    specification says, else ``~/.cache``), made if missing. None without a home directory,
    or where the directory is not this user's alone (owned by another user, or writable by
    others: a views file read from there would run its views' SQL); then nothing is kept."""
    if os.environ.get("COSYDB_CACHE_DIR"):
        folder = Path(os.environ["COSYDB_CACHE_DIR"])
    else:
        xdg = os.environ.get("XDG_CACHE_HOME", "")
        try:
            folder = (Path(xdg) if os.path.isabs(xdg) else Path.home() / ".cache") / "cosydb"
        except (RuntimeError, KeyError):  # no home directory
            return None
    try:
        folder.mkdir(mode=0o700, parents=True, exist_ok=True)
        status = folder.stat()
    except OSError:
        return None
    return folder if status.st_uid == os.getuid() and not status.st_mode & 0o022 else None


def _reused(kept: Path, tmp: Path, root: Path) -> bool:
    """Whether ``tmp`` is now a copy of views file ``kept`` (written by the same statements,
    ``_views_statements``), with the catalog row and root of ``root``. A kept file that
    cannot be read or written is removed: the caller writes a new one."""
    try:
        shutil.copyfile(kept, tmp)
    except OSError:
        return False
    with contextlib.suppress(OSError):
        os.utime(kept)  # recently used: kept longest
    try:
        con = duckdb.connect(str(tmp))
        try:
            con.execute("BEGIN")
            _catalog_row(con, root, create=False)
            con.execute("COMMIT")
        finally:
            con.close()
    except duckdb.Error:
        with contextlib.suppress(OSError):
            kept.unlink()
        return False
    return True


def _keep(written: Path, folder: Path, digest: str) -> None:
    """Keep a copy of views file ``written`` in ``folder`` under ``digest`` (the newest
    ``KEPT_VIEWS_FILES``); if the directory cannot be written, nothing is kept."""
    tmp = folder / f".views-{digest}.{os.getpid()}.tmp"
    try:
        shutil.copyfile(written, tmp)
        os.replace(tmp, folder / f"views-{digest}.duckdb")
        kept = sorted(folder.glob("views-*.duckdb"), key=lambda p: p.stat().st_mtime, reverse=True)
        for old in kept[KEPT_VIEWS_FILES:]:
            old.unlink(missing_ok=True)
    except OSError:
        with contextlib.suppress(OSError):
            tmp.unlink(missing_ok=True)


def _remove_database_file(path: Path) -> None:
    path.unlink(missing_ok=True)
    Path(str(path) + ".wal").unlink(missing_ok=True)


def _rebuild_hint(root: Path) -> str:
    """How to rebuild the database at ``root`` from the sources its experiments recorded
    (a database is derived data: rebuilt, not migrated)."""
    commands = []
    new_root = shlex.quote(str(root.with_name(root.name + ".new")))
    for directory in experiment_dirs(root):
        try:
            recorded = pq.read_table(tables.REGISTRY[EXPERIMENTS].path(directory), columns=["name", "source_path"])
            (row,) = recorded.to_pylist()
        except (OSError, ValueError, KeyError, pa.ArrowException):
            return "load its traces again into a new database"
        source, name = shlex.quote(row["source_path"]), shlex.quote(row["name"])
        commands.append(f"cosydb load {source} --db {new_root} --name {name}")
    if not commands:
        return "load its traces again into a new database"
    return "rebuild it from its sources with " + "; ".join(commands)


@contextlib.contextmanager
def registered(con: duckdb.DuckDBPyConnection, **arrow_tables: pa.Table):
    """Arrow tables visible on ``con`` under their keyword names inside the ``with`` block
    (they shadow a view or table of that name on this connection), unregistered after it."""
    for name, table in arrow_tables.items():
        con.register(name, table)
    try:
        yield con
    finally:
        for name in arrow_tables:
            con.unregister(name)


def connect(root: str | os.PathLike, read_only: bool = True) -> duckdb.DuckDBPyConnection:
    """Open the database at ``root``, rewriting its views file first if the directory moved or
    the sql/ definitions changed since it was written. DuckDB runs on ``resources.threads()``
    threads (``COSYDB_THREADS``, else the cores this process may use), as every command's
    connection does, not on every core of the machine."""
    root = Path(root)
    n_threads = resources.threads()
    if not root.exists():
        raise CosyError(root, outputs.broken_link(root) or "no such database")
    if not is_database(root):
        raise CosyError(root, f"not a cosydb database (no {VIEWS_FILE})")
    views = str(root / VIEWS_FILE)
    try:
        con = _open(views, read_only)
        cur = con.execute("SELECT * FROM cosydb_catalog")
        stored = dict(zip((d[0] for d in cur.description), cur.fetchone()))
    except duckdb.Error as error:
        raise CosyError(views, f"unreadable views file ({error})") from None
    if stored["schema_version"] != SCHEMA_VERSION:
        con.close()
        raise CosyError(
            root,
            f"schema version {stored['schema_version']}; this cosydb reads version {SCHEMA_VERSION} "
            f"(CHANGELOG.md says what changed): {_rebuild_hint(root)}",
        )
    # a moved directory, or views written by another version of sql/ (e.g. a new column)
    if stored["root"] != str(root.resolve()) or stored.get("sql_fingerprint") != sqlviews.fingerprint():
        con.close()
        try:
            write_views(root)
        except OSError as error:
            raise CosyError(
                root,
                f"its views file must be rewritten (moved, or written by another cosydb) "
                f"but cannot be: {error.strerror or error}",
            ) from None
        con = _open(views, read_only)
    con.execute(f"SET threads = {n_threads}")
    return interrupts.interruptible(con)


def _open(views: str, read_only: bool) -> duckdb.DuckDBPyConnection:
    """The views file, writable; or read-only, attached to an in-memory instance whose tables
    its cursors share (``SEARCH_PATH``)."""
    if not read_only:
        return duckdb.connect(views)
    con = duckdb.connect(config={"temp_directory": f"{views}.tmp"})  # where it spilled when opened directly
    try:
        con.execute(f"ATTACH {quote(views)} AS cosydb (READ_ONLY)")
        con.execute(f"SET search_path = '{SEARCH_PATH}'")
    except duckdb.Error:
        con.close()
        raise
    _SHARES_TABLES.add(con)
    return con


def shares_tables(con: duckdb.DuckDBPyConnection) -> bool:
    """Whether ``con`` is a read-only database connection, whose tables its cursors see."""
    return con in _SHARES_TABLES


@contextlib.contextmanager
def cursors(con: duckdb.DuckDBPyConnection, n: int):
    """``n`` cursors of ``con`` (a connection that ``shares_tables``) that see what it sees,
    each interrupted by a signal as ``con`` is, while the block runs; closed after it."""
    made = []
    try:
        for _ in range(n):
            cursor = con.cursor()
            made.append(cursor)
            cursor.execute(f"SET search_path = '{SEARCH_PATH}'")  # (its progress bar is off: a cursor's default)
            interrupts.interruptible(cursor)
        yield made
    finally:
        for cursor in made:
            cursor.close()


def next_experiment_id(root: Path) -> int:
    dirs = experiment_dirs(root)
    return int(dirs[-1].name) + 1 if dirs else 1


def experiment_names(root: Path) -> set[str]:
    names = set()
    for d in experiment_dirs(root):
        names.add(pq.read_table(tables.REGISTRY["experiments"].path(d), columns=["name"]).column(0)[0].as_py())
    return names


def read_only_session(con: duckdb.DuckDBPyConnection, root: str | os.PathLike, spill: Path) -> None:
    """Restrict ``con`` to reading: no file outside the database directory (the views read
    their Parquet files inside it), no ATTACH elsewhere, spilling under ``spill`` (not into
    the database directory), and no changing that back."""
    con.execute("SET temp_directory = ?", [str(Path(spill) / f"duckdb-{os.getpid()}")])
    con.execute("SET allowed_directories = [?]", [str(Path(root).resolve()) + os.sep])
    con.execute("SET enable_external_access = false")
    con.execute("SET lock_configuration = true")


# --- the writers' lifecycle: locks, staging directories, leftovers of killed loads ----------


class _Held:
    """A lock file this process holds: its descriptor and how deeply it is entered."""

    def __init__(self):
        self.mutex = threading.RLock()  # threads of this process: flock would not tell them apart
        self.fd: int | None = None
        self.depth = 0


_held: dict[str, _Held] = {}
_held_guard = threading.Lock()


def _forget_locks_in_child() -> None:
    """A forked process (a reader) must not keep the parent's locks alive: close its copies."""
    global _held_guard
    for entry in _held.values():
        if entry.fd is not None:
            with contextlib.suppress(OSError):
                os.close(entry.fd)
        entry.fd, entry.depth, entry.mutex = None, 0, threading.RLock()
    _held_guard = threading.Lock()


os.register_at_fork(after_in_child=_forget_locks_in_child)


def _holder(root: Path, fd: int) -> int | None:
    """The pid holding the lock on ``fd``'s file: from ``/proc/locks`` (Linux), else the pid
    of a live load's staging directory; None if unknown."""
    mine = os.fstat(fd)
    device = f"{os.major(mine.st_dev):02x}:{os.minor(mine.st_dev):02x}:{mine.st_ino}"
    try:
        with open("/proc/locks") as locks:
            for line in locks:
                fields = line.split()  # 1: FLOCK ADVISORY WRITE <pid> <maj:min:inode> 0 EOF
                if len(fields) > 5 and fields[1] == "FLOCK" and fields[5] == device and fields[4].isdigit():
                    return int(fields[4])
    except OSError:
        pass
    live = [d for d in (root / EXPERIMENTS).glob(f"{STAGING_PREFIX}*") if d not in stale_staging_dirs(root)]
    pid = live[0].name.rsplit("-", 1)[-1] if live else ""
    return int(pid) if pid.isdigit() else None


def _acquire(root: Path, path: str, create: bool, on_wait: Callable[[int | None], None] | None) -> tuple[int, bool]:
    """The locked descriptor of ``path``, and whether this created ``root``."""
    told = made = False
    while True:
        if create and not root.is_dir():
            try:
                root.mkdir(parents=True)
                made = True
            except FileExistsError:
                pass
        fd = os.open(path, os.O_RDONLY | os.O_CREAT | os.O_CLOEXEC, 0o666)  # flock needs no write access
        try:
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except BlockingIOError:
                if on_wait is not None and not told:
                    on_wait(_holder(root, fd))
                    told = True
                fcntl.flock(fd, fcntl.LOCK_EX)
            try:  # the holder before may have removed the database it created: start again
                current = os.stat(path)
            except FileNotFoundError:
                current = None
            mine = os.fstat(fd)
            if current is not None and (current.st_dev, current.st_ino) == (mine.st_dev, mine.st_ino):
                return fd, made
        except BaseException:
            os.close(fd)
            raise
        os.close(fd)


@contextlib.contextmanager
def locked(
    root: str | os.PathLike,
    name: str = VIEWS_LOCK,
    create: bool = False,
    on_wait: Callable[[int | None], None] | None = None,
):
    """Hold the exclusive lock ``root/name`` (``LOAD_LOCK`` or ``VIEWS_LOCK``): ``flock`` on
    a lock file, so the kernel releases it when the holder dies, even of kill -9.

    Re-entrant within a thread. ``create`` makes ``root`` if it is missing, and the block is
    given whether this did (else False); ``on_wait`` is called once, with the holder's pid if
    known, when the lock is busy and this waits.
    The lock file is never removed (but by a first load that failed, with what it created:
    a waiter then finds the file gone and starts again).
    """
    root = Path(root)
    path = os.path.realpath(root / name)  # one entry per file, however the path is spelled
    with _held_guard:
        entry = _held.setdefault(path, _Held())
    with entry.mutex:
        if entry.depth:
            entry.depth += 1
            try:
                yield False
            finally:
                entry.depth -= 1
            return
        entry.fd, made = _acquire(root, path, create, on_wait)
        entry.depth = 1
        try:
            yield made
        finally:
            fd, entry.fd, entry.depth = entry.fd, None, 0
            os.close(fd)  # releases the lock


def staging_dir(root: Path, experiment_id: int, pid: int | None = None) -> Path:
    """Where a load writes experiment ``experiment_id`` until it commits: ``.staging-<id>-<pid>``."""
    return root / EXPERIMENTS / f"{STAGING_PREFIX}{experiment_id}-{os.getpid() if pid is None else pid}"


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    try:  # a zombie (killed, not yet reaped by its parent) is gone as well
        with open(f"/proc/{pid}/stat", "rb") as stat:
            return stat.read().rsplit(b")", 1)[1].split()[0] != b"Z"
    except (OSError, IndexError):
        return True


def stale_staging_dirs(root: Path) -> list[Path]:
    """Staging directories of loads that are gone (killed): their pid is not a live process."""
    base = root / EXPERIMENTS
    if not base.is_dir():
        return []
    stale = []
    for d in base.iterdir():
        if not d.name.startswith(STAGING_PREFIX):
            continue
        pid = d.name.rsplit("-", 1)[-1]
        if not pid.isdigit() or (int(pid) != os.getpid() and not _alive(int(pid))):
            stale.append(d)
    return stale


def remove_stale_staging(root: Path) -> list[Path]:
    """Remove what killed loads left (call with the load lock held); returns the directories."""
    stale = stale_staging_dirs(root)
    for d in stale:
        shutil.rmtree(d, ignore_errors=True)
    return stale


def is_leftover(root: Path) -> bool:
    """Is ``root`` a directory without a views file holding only what cosydb writes (a lock
    file, staging directories, experiments committed before the first views file was written):
    what a first load killed by kill -9 leaves, a first load at work, or an empty
    directory? A load may take it over as a new database."""
    if not root.is_dir() or is_database(root):
        return False
    for entry in os.listdir(root):
        if entry == EXPERIMENTS:
            base = root / EXPERIMENTS
            if not base.is_dir() or not all(
                d.startswith(STAGING_PREFIX) or (d.isdigit() and _is_experiment(base / d)) for d in os.listdir(base)
            ):
                return False
        elif entry not in (LOAD_LOCK, VIEWS_LOCK) and not entry.startswith(f".{VIEWS_FILE}."):
            return False
    return True


def _is_experiment(directory: Path) -> bool:
    """Does ``directory`` hold a committed experiment's files only: its row, and Parquet files
    (a Parquet directory where Spark wrote it)?"""
    if directory.is_symlink() or not directory.is_dir():
        return False
    entries = os.listdir(directory)
    return tables.REGISTRY["experiments"].path(directory).name in entries and all(
        e.endswith(".parquet") for e in entries
    )
