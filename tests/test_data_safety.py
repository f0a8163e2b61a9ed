"""Nothing of the user's lost (issue 37 items 1-4, 12): a load removes only what it created,
``-o`` writes only regular files (through a symbolic link as ``cp`` does), output that stdout
does not take is an error, every command stops on a signal as ``load`` does, and the
smaller messages (out of memory, a full disk, a symbolic link loop) say what to do."""

import contextlib
import os
import signal
import stat
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import duckdb
import pytest
from conftest import COSYDB, assert_clean_failure, cosydb, small_trace
from test_lifecycle import assert_one_line, snapshot, wait_for

from cosydb.loading import load

pytestmark = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc")


@pytest.fixture(scope="module")
def db(tmp_path_factory):
    """A database of the 2-rank small trace, its report stored; shared by the module's tests,
    which only read it (an interrupted report is checked to leave it as it was)."""
    tmp_path = tmp_path_factory.mktemp("db")
    db = tmp_path / "x.cosydb"
    load(small_trace(tmp_path), db)
    assert cosydb("report", db).returncode == 0
    return db


def broken_trace(tmp_path):
    """A small trace whose first event file is cut short: its load fails once it has begun writing."""
    run = small_trace(tmp_path)
    events = sorted((run / "traces").glob("*.evt"))[0]
    events.write_bytes(events.read_bytes()[:60])
    return run


# --- 1. a load removes only what it created ----------------------------------------------


def test_load_never_removes_a_directory_it_does_not_own(tmp_path):
    trace = small_trace(tmp_path)
    mine = tmp_path / "d"
    (mine / "experiments" / "2023").mkdir(parents=True)
    (mine / "experiments" / "2023" / "notes.txt").write_text("precious")
    before = snapshot(mine)
    assert_clean_failure(cosydb("load", trace, "--db", mine), f"{mine}: exists and is not a cosydb database")
    assert snapshot(mine) == before
    (mine / "experiments").rename(mine / "mine")  # any other file is the user's too
    assert_clean_failure(cosydb("load", trace, "--db", mine), "exists and is not a cosydb database")
    assert (mine / "mine" / "2023" / "notes.txt").read_text() == "precious"
    # a failed load into an empty directory the user made leaves it, empty
    empty = tmp_path / "empty"
    empty.mkdir()
    broken = broken_trace(tmp_path / "b")
    assert_clean_failure(cosydb("load", broken, "--db", empty), "corrupt or truncated event data")
    assert empty.is_dir() and list(empty.iterdir()) == []
    # a database directory the load made is removed; a good load into the empty one works
    assert_clean_failure(cosydb("load", broken, "--db", tmp_path / "new"), "corrupt or truncated event data")
    assert not (tmp_path / "new").exists()
    assert cosydb("load", trace, "--db", empty).returncode == 0
    assert (empty / "cosydb.duckdb").is_file()


# --- 2. -o writes a regular file, or through a symbolic link to one ------------------------


def test_output_is_a_regular_file_or_written_through_a_link(tmp_path, db):
    out = tmp_path / "out"
    out.mkdir()
    fifo = out / "fifo"
    os.mkfifo(fifo)
    refused = cosydb("export", db, "--format", "perfetto", "-o", fifo)
    assert_clean_failure(refused, f"{fifo}: is a named pipe (FIFO), not a regular file")
    assert stat.S_ISFIFO(os.lstat(fifo).st_mode)
    html = cosydb("report", db, "--format", "html", "-o", fifo)
    assert_clean_failure(html, "is a named pipe (FIFO), not a regular file")
    try:  # a twin of /dev/full (root only)
        os.mknod(out / "full", 0o666 | stat.S_IFCHR, os.makedev(1, 7))
    except PermissionError:
        pass
    else:
        device = cosydb("export", db, "--format", "cube", "-o", out / "full")
        assert_clean_failure(device, "is a character device, not a regular file")
        assert stat.S_ISCHR(os.lstat(out / "full").st_mode)
    # a symbolic link: the file it names is written, the link kept (as cp does)
    (out / "real.json").write_text("old")
    (out / "link.json").symlink_to("real.json")
    written = cosydb("export", db, "--format", "perfetto", "-o", out / "link.json")
    assert written.returncode == 0, written.stderr
    assert os.readlink(out / "link.json") == "real.json"
    assert (out / "real.json").read_text().startswith('{"traceEvents"')
    (out / "to_fifo").symlink_to("fifo")
    assert_clean_failure(cosydb("export", db, "-o", out / "to_fifo"), "is a named pipe (FIFO)")
    (out / "dangling").symlink_to("nowhere")
    assert_clean_failure(cosydb("export", db, "-o", out / "dangling"), "symbolic link to nothing")
    (out / "loop").symlink_to("loop")
    assert_clean_failure(cosydb("export", db, "-o", out / "loop"), f"{out / 'loop'}: symbolic link loop")
    assert {p.name for p in out.iterdir()} - {"full"} == {
        "dangling",
        "fifo",
        "link.json",
        "loop",
        "real.json",
        "to_fifo",
    }


# --- 3. output stdout does not take is an error --------------------------------------------


def run_into(stdout, *args):
    """``cosydb args`` with its stdout on the open file ``stdout`` (its stdout shown as '')."""
    done = subprocess.run([COSYDB, *map(str, args)], stdout=stdout, stderr=subprocess.PIPE, text=True, timeout=120)
    done.stdout = ""
    return done


@pytest.mark.slow
def test_a_failed_write_to_stdout_is_an_error(db):
    with open("/dev/full", "w") as full:
        for args in (("sql", db, "SELECT 1 AS one"), ("report", db), ("sql", db, "SELECT 1", "--format", "csv")):
            failed = run_into(full, *args)
            assert_clean_failure(failed, "cosydb: write error: No space left on device")
    # a reader that stops early (| head -1): quiet, no traceback
    reader = subprocess.Popen(
        [COSYDB, "sql", db, "SELECT * FROM range(500000)", "--format", "csv"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )
    assert reader.stdout.readline() == b'"range"\n'
    reader.stdout.close()
    assert reader.wait(timeout=120) != 0
    assert reader.stderr.read() == b""


# --- 4. signals stop every command: one line, 128 + n, no temporary file --------------------


SLOW = "SELECT count(*) AS n FROM range(1000000000000) t(i) WHERE i % 7 = 3"


def opened(process, name):
    """Has ``process`` a file named ``name`` open (its work has begun)?"""

    def check():
        try:
            return any(
                os.readlink(f"/proc/{process.pid}/fd/{fd}").endswith(name)
                for fd in os.listdir(f"/proc/{process.pid}/fd")
            )
        except OSError:
            return False

    return check


def stopped(process, signum, line):
    """Send ``signum`` once ``process`` has its database open and is at work; it ends promptly
    with 128 + ``signum`` and the one ``line``."""
    try:
        wait_for(opened(process, "cosydb.duckdb"), process, what="the database opened")
        time.sleep(0.5)  # at work in the slow query (it starts within milliseconds of the open)
        sent = time.monotonic()
        process.send_signal(signum)
        out, err = process.communicate(timeout=120)
    finally:  # a failed test leaves no query running for hours
        if process.poll() is None:
            process.kill()
            process.communicate()
    assert process.returncode == 128 + signum, (process.returncode, err)
    assert_one_line(err, line)
    assert time.monotonic() - sent < 60  # the query was interrupted, not run to its end


def start(*args, **kwargs):
    return subprocess.Popen(
        [COSYDB, *map(str, args)], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, **kwargs
    )


@pytest.mark.slow
def test_signals_stop_sql_and_report(tmp_path, db):
    stopped(start("sql", db, SLOW), signal.SIGTERM, "cosydb: interrupted (SIGTERM)")
    stopped(start("sql", db, SLOW), signal.SIGINT, "cosydb: interrupted (SIGINT)")
    plugins = tmp_path / "props" / "slow"
    plugins.mkdir(parents=True)
    for name in ("slow_property", "slow_other"):  # evaluated side by side on two cursors: both interrupted
        (plugins / f"{name}.sql").write_text(
            "{#---\nkind: property\nparent: null\nunit: s\ninfo: i\ndescription: d\ndiagnosis: g\n---#}\n" + SLOW
        )
    before = snapshot(db)
    selected = ["--property", "slow_property", "--property", "slow_other"]
    two_threads = {**os.environ, "COSYDB_THREADS": "2"}
    report = start("report", db, "--properties-dir", plugins.parent, *selected, env=two_threads)
    stopped(report, signal.SIGHUP, "cosydb: interrupted (SIGHUP)")
    assert snapshot(db) == before  # the stored results as they were, no temporary file


PAUSED_EXPORT = textwrap.dedent("""
    import contextlib, sys, time
    from pathlib import Path
    from cosydb import outputs
    from cosydb.cli import app
    replaced, marker = outputs.replaced, Path(sys.argv[1])

    @contextlib.contextmanager
    def paused(output):  # the signal comes once the temporary file is written, before the rename
        with replaced(output) as tmp:
            yield tmp
            marker.write_text(str(tmp))
            time.sleep(600)

    outputs.replaced = paused
    sys.argv = ["cosydb", *sys.argv[2:]]
    app()
""")


@pytest.mark.slow
def test_a_signal_during_export_leaves_no_temporary_file(tmp_path, db):
    out = tmp_path / "out"
    out.mkdir()
    marker = tmp_path / "paused"
    process = subprocess.Popen(
        [sys.executable, "-c", PAUSED_EXPORT, marker, "export", db, "--format", "perfetto", "-o", out / "x.json"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    tmp = Path(wait_for(lambda: marker.exists() and marker.read_text(), process, what="the temporary file"))
    assert tmp.parent == out and tmp.is_file()
    process.send_signal(signal.SIGTERM)
    _, err = process.communicate(timeout=60)
    assert process.returncode == 143, err
    assert_one_line(err, "cosydb: interrupted (SIGTERM)")
    assert list(out.iterdir()) == []


# --- 12. the smaller messages ------------------------------------------------------------------


def test_out_of_memory_names_the_memory_limit_option():
    from cosydb import resources

    con = duckdb.connect()
    con.execute("SET memory_limit = '20MB'")
    con.execute("SET threads = 1")
    with pytest.raises(duckdb.OutOfMemoryException) as error:
        con.execute("SELECT list(i) FROM range(50000000) t(i)").fetchall()
    text = resources.error_text(error.value)
    assert "--memory-limit (or COSYDB_MEMORY_LIMIT)" in text and "SET memory_limit" not in text
    assert "\n" not in text and text.startswith("Out of Memory Error: ")


def test_an_entry_beyond_the_default_budget_is_computed_again_within_duckdbs_default(monkeypatch, capsys):
    from cosydb import evaluator, resources
    from cosydb.errors import CosyError

    monkeypatch.delenv("COSYDB_MEMORY_LIMIT", raising=False)
    big = "SELECT len(list(i)) AS n FROM range(10000000) t(i)"  # 80 MB of BIGINTs in one list
    con = duckdb.connect()
    resources.apply(con, n_threads=1, default_memory="20MB")
    evaluator.DuckDBTables(con, shared=False).create("rows_big", big, {}, "properties/big.sql")
    assert con.execute("SELECT n FROM rows_big").fetchall() == [(10_000_000,)]
    said = capsys.readouterr().err
    assert said.startswith("cosydb: properties/big.sql needed more than the default memory budget (19.0 MiB)")
    assert said.count("\n") == 1 and "--memory-limit" in said
    # once: a budget grown already is not grown again
    con.execute("SET memory_limit = '20MB'")
    with pytest.raises(CosyError, match="big.sql: evaluation failed: Out of Memory Error"):
        evaluator.DuckDBTables(con, shared=False).create("rows_big", big, {}, "properties/big.sql")
    # a budget the user gave, on the command line or in the environment, is kept
    for given, env in (("20MB", None), (None, "20MB")):
        if env:
            monkeypatch.setenv("COSYDB_MEMORY_LIMIT", env)
        con = duckdb.connect()
        resources.apply(con, given, n_threads=1, default_memory="640MB")
        with pytest.raises(duckdb.OutOfMemoryException):
            resources.growing(con, lambda: con.execute(big), "the list")
    assert capsys.readouterr().err == ""


def test_a_symbolic_link_loop_is_one_line(tmp_path):
    trace = small_trace(tmp_path / "t")
    (tmp_path / "loop").symlink_to("loop")
    assert_clean_failure(cosydb("load", trace, "--db", tmp_path / "loop"), f"{tmp_path / 'loop'}: symbolic link loop")
    assert_clean_failure(cosydb("info", tmp_path / "loop"), "symbolic link loop")


@pytest.mark.slow
def test_a_full_disk_names_the_file(tmp_path, db):
    """Outputs and stored results on a full file system (a 16 MiB tmpfs; skipped where
    mounting is not allowed): each refusal names the file it could not write."""
    small = tmp_path / "small"
    small.mkdir()
    if subprocess.run(["mount", "-t", "tmpfs", "-o", "size=16m", "tmpfs", small], capture_output=True).returncode:
        pytest.skip("cannot mount a small tmpfs here")
    try:
        inside = small / "in.cosydb"
        load(small_trace(tmp_path / "t"), inside)
        with open(small / "filler", "wb", buffering=0) as filler, pytest.raises(OSError):
            while True:  # until the disk is full
                filler.write(b"x" * 4096)
        for fmt, name in (("perfetto", "x.json"), ("cube", "x.cubex")):
            full = cosydb("export", db, "--format", fmt, "-o", small / name)
            assert_clean_failure(full, f"{small / name}: No space left on device")
        html = cosydb("report", db, "--format", "html", "-o", small / "r.html")
        assert_clean_failure(html, f"{small / 'r.html'}: No space left on device")
        cube = cosydb("cube", inside)  # the first table it writes: the evaluation's record, emptied
        assert_clean_failure(cube, f"{inside / 'experiments' / '1' / 'property_evaluation.parquet'}: No space left on")
        assert sorted(p.name for p in small.iterdir()) == ["filler", "in.cosydb"]
        assert not list(inside.rglob("*.tmp"))
    finally:
        subprocess.run(["umount", str(small)], capture_output=True)


def writing_to_a_full_pipe(process):
    """Is ``process`` blocked writing to a pipe nobody reads?"""

    def check():
        with contextlib.suppress(OSError):
            return Path(f"/proc/{process.pid}/wchan").read_text().endswith("pipe_write")
        return False

    return check


@pytest.mark.slow
@pytest.mark.parametrize(
    "args",
    [("sql", "{db}", "SELECT * FROM range(3000000)", "--format", "csv"), ("properties", "--format", "markdown")],
    ids=["sql csv while it streams", "properties while it prints"],
)
@pytest.mark.parametrize("signum", [signal.SIGTERM, signal.SIGINT])
def test_a_signal_stops_a_command_blocked_on_its_output(db, args, signum):
    """A reader that stops reading: sql's CSV (written a batch at a time) and the catalog
    printed after the command's work block on the full pipe; a signal ends either with one
    line and 128 + n, the pipe still unread (Arrow's own write waited whatever signal came;
    SIGTERM while printing killed the process silently, -15)."""
    process = start(*(str(a).format(db=db) for a in args))
    wait_for(writing_to_a_full_pipe(process), process, what="blocked on its output")
    process.send_signal(signum)
    try:  # the pipe still unread: the signal alone must end it
        code = process.wait(timeout=30)
    except subprocess.TimeoutExpired:
        process.kill()
        pytest.fail("the command went on writing after the signal")
    assert code == 128 + signum
    assert_one_line(process.stderr.read(), f"cosydb: interrupted ({signal.Signals(signum).name})")
