"""Nothing of the user's lost (issue 37 items 1-4, 12): a load removes only what it created,
``-o`` writes only regular files (through a symbolic link as ``cp`` does), output that stdout
does not take is an error, every command stops on a signal as ``load`` does, and the
smaller messages (out of memory, a full disk, a symbolic link loop) say what to do."""

import os
import stat
import subprocess
import sys

import pytest
from conftest import assert_clean_failure, cosydb, small_trace
from test_lifecycle import snapshot

from cosydb.loading import load

pytestmark = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc")


@pytest.fixture
def db(tmp_path):
    """A database of the 2-rank small trace, its report stored."""
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
    assert (out / "real.json").read_text().startswith('{"displayTimeUnit"')
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


# --- 12. the smaller messages ------------------------------------------------------------------


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
        cube = cosydb("cube", inside)
        assert_clean_failure(cube, f"{inside / 'experiments' / '1' / 'severity_cube.parquet'}: No space left on device")
        assert sorted(p.name for p in small.iterdir()) == ["filler", "in.cosydb"]
        assert not list(inside.rglob("*.tmp"))
    finally:
        subprocess.run(["umount", str(small)], capture_output=True)


def test_a_symbolic_link_loop_is_one_line(tmp_path):
    trace = small_trace(tmp_path / "t")
    (tmp_path / "loop").symlink_to("loop")
    assert_clean_failure(cosydb("load", trace, "--db", tmp_path / "loop"), f"{tmp_path / 'loop'}: symbolic link loop")
    assert_clean_failure(cosydb("info", tmp_path / "loop"), "symbolic link loop")
