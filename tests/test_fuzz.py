"""Damaged traces: mutants of a real Score-P trace (bytes flipped, files cut) loaded with the CLI.

Each mutant must load (exit 0, an openable database) or fail cleanly: exit code 2 (or 1
with the request to report an internal error), exactly one line ``cosydb: <file>: ...``
on stderr naming the damaged file, no traceback (neither cosydb's nor one the ``otf2``
package prints from its callbacks), no output of the OTF2 C library, and no database
left behind. A mutant that hangs is killed after ``TIMEOUT`` seconds and fails the test.

tests/fuzz_inputs.py does the same for the other inputs (OTF v1, CUBE4 profiles, ASL
summaries and files, ``cosydb sql``); ``COSYDB_FUZZ_N`` sets how many cases its test runs.

The loads run ``cosydb.cli`` in processes forked from a helper interpreter that imported
cosydb once (a fresh ``cosydb`` process per mutant costs about a second; a fork a
fraction of that); each child's file descriptors 1 and 2 go to files, so whatever
Python or C code prints is seen. ``python tests/test_fuzz.py N [SEED] [TRACE ...]`` runs
more mutants and prints statistics.
"""

from __future__ import annotations

import collections
import os
import random
import shutil
import subprocess
import sys
import time
from pathlib import Path

import cli_process
import fuzz_inputs
import pytest
from conftest import COSYDB, TRACES, real_trace

SEED = 14
MUTANTS = 120
TIMEOUT = 30  # seconds; the loads take a fraction of one
TRACE = "ping-pong-otf2"


def trace_files(run: Path) -> list[str]:
    """The files of an OTF2 archive: the anchor, the global and local definitions, the events."""
    return sorted(
        p.relative_to(run).as_posix() for p in run.rglob("*") if p.is_file() and p.suffix in (".otf2", ".def", ".evt")
    )


def mutate(run: Path, k: int, seed: int = SEED) -> tuple[str, str]:
    """Damage mutant ``k``: flip 1-8 bytes of, or cut, one file (every file in turn).
    Returns the file (relative to ``run``) and what was done to it."""
    rng = random.Random(f"{seed}-{k}")
    files = trace_files(run)
    name = files[k % len(files)]
    path = run / name
    data = bytearray(path.read_bytes())
    if k // len(files) % 3 == 2 or not data:
        cut = rng.randrange(len(data)) if data else 0
        path.write_bytes(bytes(data[:cut]))
        return name, f"cut at {cut} of {len(data)} bytes"
    flips = []
    for _ in range(rng.choice((1, 1, 2, 3, 8))):
        i = rng.randrange(len(data))
        old = data[i]
        new = rng.choice((0x00, 0xFF, old ^ (1 << rng.randrange(8)), rng.randrange(256)))
        data[i] = new if new != old else old ^ 0xFF
        flips.append(f"{i}:{old:02x}->{data[i]:02x}")
    path.write_bytes(bytes(data))
    return name, "flipped " + " ".join(flips)


def make_mutant(source: Path, directory: Path, k: int, seed: int = SEED) -> tuple[Path, str, str]:
    run = directory / f"m{k}" / source.name
    shutil.copytree(source, run)
    for p in run.rglob("*"):
        p.chmod(0o755 if p.is_dir() else 0o644)
    return (run, *mutate(run, k, seed))


# -- the helper interpreter: forks one child per load (tests/cli_process.py) ------------------


class Loader:
    """``cosydb load`` in forked children of one helper interpreter."""

    def __init__(self):
        self.helper = cli_process.Helper()

    def load(self, run: Path, db: Path, scratch: Path, *options: str, timeout: float = TIMEOUT):
        """(exit code or 'hang' / 'signal N', stdout, stderr, seconds) of ``cosydb load run --db db``."""
        out, err = scratch / "stdout", scratch / "stderr"
        status, seconds = self.helper.run(["load", run, "--db", db, *options], out, err, timeout=timeout)
        return status, out.read_text(errors="replace"), err.read_text(errors="replace"), seconds

    def close(self):
        self.helper.close()


def check(run: Path, target: str, db: Path, status, stdout: str, stderr: str) -> list[str]:
    """What is wrong with the outcome of loading a mutant (empty: nothing)."""
    from cosydb import database

    problems = []
    lines = stderr.strip().splitlines()
    if status not in (0, 1, 2):
        problems.append(f"exit status {status}")
    if "Traceback" in stderr + stdout:
        problems.append("a traceback")
    if "[OTF2]" in stderr:
        problems.append("OTF2's own error lines")
    if status == 0:
        if not (db / "cosydb.duckdb").is_file():
            problems.append("no database after a successful load")
        else:
            con = database.connect(db)
            try:
                con.execute("SELECT count(*) FROM events").fetchone()
            finally:
                con.close()
    elif status in (1, 2):
        if len(lines) != 1 or not lines[0].startswith("cosydb: "):
            problems.append(f"{len(lines)} lines on stderr instead of one 'cosydb: ...'")
        elif status == 1 and "please report it" not in lines[0]:
            problems.append("exit code 1 without the request to report the internal error")
        elif status == 2 and target not in lines[0]:
            problems.append(f"does not name the damaged file {target}")
        if db.exists():
            problems.append("a database was left behind")
    return problems


def fuzz(source: Path, directory: Path, mutants: int, seed: int = SEED, loader: Loader | None = None):
    """Load ``mutants`` mutants of the trace ``source``: (outcome counts, failures, seconds)."""
    own = loader is None
    loader = loader or Loader()
    outcomes, failures, seconds = collections.Counter(), [], []
    try:
        for k in range(mutants):
            run, target, what = make_mutant(source, directory, k, seed)
            db = directory / f"m{k}.cosydb"
            status, stdout, stderr, took = loader.load(run, db, directory)
            seconds.append(took)
            outcomes["loaded" if status == 0 else f"exit {status}"] += 1
            problems = check(run, target, db, status, stdout, stderr)
            if problems:
                failures.append(
                    f"mutant {k} ({target} {what}): {'; '.join(problems)}\n    "
                    + "\n    ".join(stderr.strip().splitlines()[-5:])
                )
            shutil.rmtree(run.parent, ignore_errors=True)
            shutil.rmtree(db, ignore_errors=True)
    finally:
        if own:
            loader.close()
    return outcomes, failures, seconds


@pytest.mark.slow
def test_damaged_traces_fail_cleanly(tmp_path):
    source = real_trace(TRACE)
    started = time.perf_counter()
    outcomes, failures, seconds = fuzz(source, tmp_path, MUTANTS)
    assert not failures, f"{len(failures)} of {MUTANTS} mutants:\n" + "\n".join(failures)
    assert sum(outcomes.values()) == MUTANTS
    assert outcomes["exit 2"] >= MUTANTS // 2  # most damage is detected, not silently loaded
    assert max(seconds) < TIMEOUT and time.perf_counter() - started < 120


def test_the_mutants_damage_every_file_both_ways(tmp_path):
    source = real_trace(TRACE)
    files = trace_files(source)
    kinds = {
        (target, what.split()[0]) for k in range(MUTANTS) for _, target, what in [make_mutant(source, tmp_path, k)]
    }
    assert kinds == {(f, kind) for f in files for kind in ("flipped", "cut")}


# -- the classes of damage the fuzzer found, one each ---------------------------------------


@pytest.fixture(scope="module")
def loader():
    helper = Loader()
    yield helper
    helper.close()


def copy_trace(name: str, directory: Path) -> Path:
    run = directory / name
    shutil.copytree(real_trace(name), run)
    for p in run.rglob("*"):
        p.chmod(0o755 if p.is_dir() else 0o644)
    return run


def load_fails(loader, run: Path, tmp_path: Path, needle: str, *options: str) -> str:
    """Load ``run`` (with ``options``): one line naming ``needle``, exit code 2, no database."""
    db = tmp_path / "x.cosydb"
    status, _, stderr, _ = loader.load(run, db, tmp_path, *options)
    assert status == 2 and "Traceback" not in stderr, stderr
    lines = stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("cosydb: ") and needle in lines[0], stderr
    assert not db.exists()
    return lines[0]


def test_string_not_utf8_in_global_definitions(loader, tmp_path):
    """The otf2 package's callback printed the UnicodeDecodeError's traceback; traces.otf2 was blamed."""
    run = copy_trace("ping-pong-otf2", tmp_path)
    data = (run / "traces.def").read_bytes()
    i = data.index(b"MPI_Send")
    (run / "traces.def").write_bytes(data[:i] + b"\xff" + data[i + 1 :])
    line = load_fails(loader, run, tmp_path, "/traces.def: corrupt or truncated global definitions")
    assert "not valid UTF-8" in line


def test_garbage_anchor_without_definitions_blames_the_anchor(loader, tmp_path):
    run = copy_trace("ping-pong-otf2", tmp_path)
    (run / "traces.otf2").write_bytes(b"garbage")
    (run / "traces.def").unlink()
    load_fails(loader, run, tmp_path, "/traces.otf2: not a readable OTF2 archive")


def test_damaged_local_definitions_blame_their_file(loader, tmp_path):
    run = copy_trace("ping-pong-otf2", tmp_path)
    local = run / "traces" / "1.def"
    local.write_bytes(local.read_bytes()[:-20])
    load_fails(loader, run, tmp_path, "/traces/1.def: corrupt or truncated local definitions")


def test_missing_event_file_says_so(loader, tmp_path):
    run = copy_trace("ping-pong-otf2", tmp_path)
    (run / "traces" / "1.evt").unlink()
    load_fails(loader, run, tmp_path, "/traces/1.evt: event file is missing")


@pytest.mark.parametrize("workers", ["1", "2"])
def test_timestamp_beyond_int64_names_the_event_file(loader, tmp_path, workers):
    """Was a raw DuckDB 'Conversion Error' naming no file (and, from a reader process, an
    error that could not cross back to the parent)."""
    run = copy_trace("scorep-late_sender", tmp_path)
    events = run / "traces" / "2.evt"
    data = bytearray(events.read_bytes())
    data[334] = 0xFF  # a timestamp byte of event 24
    events.write_bytes(bytes(data))
    line = load_fails(loader, run, tmp_path, "/traces/2.evt: corrupt event data", "--workers", workers)
    assert "event 24 has timestamp" in line and "signed 64-bit" in line


def test_unknown_enum_values_are_load_warnings(tmp_path):
    """An enum value OTF2 does not know is stored as CODE_<n> with a warning naming where it is."""
    import otf2
    from otf2.enums import CollectiveOp, GroupType, LocationGroupType, LocationType, Paradigm, RegionRole

    from cosydb import database

    with otf2.writer.open(str(tmp_path / "run"), timer_resolution=1000) as trace:
        defs = trace.definitions
        group = defs.location_group(
            "MPI Rank 0",
            location_group_type=LocationGroupType.PROCESS,
            system_tree_parent=defs.system_tree_node("machine"),
        )
        location = defs.location("Master thread", type=LocationType.CPU_THREAD, group=group)
        defs.group("", group_type=GroupType.COMM_LOCATIONS, paradigm=Paradigm.MPI, members=[location])
        world = defs.comm(
            "MPI_COMM_WORLD",
            group=defs.group("", group_type=GroupType.COMM_GROUP, paradigm=Paradigm.MPI, members=[location]),
        )
        main = defs.region(
            "main", region_role=RegionRole.FUNCTION, paradigm=Paradigm.USER, region_flags=otf2.RegionFlag(3)
        )  # DYNAMIC|PHASE: known flags
        barrier = defs.region(
            "MPI_Barrier", region_role=RegionRole.BARRIER, paradigm=Paradigm.MPI, region_flags=otf2.RegionFlag(8)
        )  # no such flag
        writer = trace.event_writer_from_location(location)
        writer.enter(10, main)
        writer.enter(20, barrier)
        writer.mpi_collective_begin(21)
        writer.mpi_collective_end(30, CollectiveOp(200), world, 0xFFFFFFFF, 0, 0)
        writer.leave(40, barrier)
        writer.leave(50, main)
    db = tmp_path / "x.cosydb"
    result = subprocess.run(
        [COSYDB, "load", str(tmp_path / "run"), "--db", str(db)],
        capture_output=True,
        text=True,
    )
    assert result.returncode == 0, result.stderr
    assert "Traceback" not in result.stderr and "unknown_enum_values" in result.stderr
    con = database.connect(db)
    try:
        details = sorted(
            r[0]
            for r in con.execute("SELECT detail FROM load_warnings WHERE \"check\" = 'unknown_enum_values'").fetchall()
        )
        flags = dict(con.execute("SELECT name, flags FROM regions").fetchall())
        op = con.execute("SELECT coll_op FROM events WHERE type = 'MPI_COLLECTIVE_END'").fetchone()[0]
    finally:
        con.close()
    assert details == [
        "coll_op value unknown to OTF2 (first 200 at event 4 of traces/0.evt, stored as CODE_200)",
        "flags value unknown to OTF2 (region_id 1 of regions in the global definitions, stored as CODE_8)",
    ]
    assert flags == {"main": "DYNAMIC|PHASE", "MPI_Barrier": "CODE_8"} and op == "CODE_200"


# -- the other inputs: OTF v1, CUBE4, ASL summaries and files, cosydb sql (tests/fuzz_inputs.py) --

#: cases over the kinds in turn (10 each); COSYDB_FUZZ_N=1000 runs a larger fuzz (about 8 minutes)
INPUT_CASES = int(os.environ.get("COSYDB_FUZZ_N", 10 * len(fuzz_inputs.KINDS)))


@pytest.mark.slow
def test_damaged_other_inputs_fail_cleanly(tmp_path):
    """Every case loads or runs (exit 0) or is refused in one line naming its file; no
    traceback, internal error, hang, or file left behind (the summary lists any)."""
    started = time.perf_counter()
    stats = fuzz_inputs.fuzz(INPUT_CASES, tmp_path)
    report = fuzz_inputs.summary(stats, time.perf_counter() - started)
    assert not stats.failures, report
    assert sum(stats.tried.values()) == INPUT_CASES
    assert set(stats.tried) == set(fuzz_inputs.KINDS)
    assert stats.problems("refused") >= INPUT_CASES // 2, report  # most damage is detected


def test_the_input_cases_damage_every_kind_every_way(tmp_path):
    """The default cases: every kind, each damaged by flipped bytes, a cut, junk and a field edit
    (the sql cases: a word)."""
    seeds = fuzz_inputs.make_seeds(tmp_path / "seeds")
    ways = collections.defaultdict(set)
    for kind, k in fuzz_inputs.cases(10 * len(fuzz_inputs.KINDS)):
        what = fuzz_inputs.make_case(kind, k, fuzz_inputs.SEED, seeds, tmp_path / "work").what
        ways[kind] |= {w for w in ("flipped", "cut", "junk", "field", "token", "cell", "word", "/") if w in what}
    assert set(ways) == set(fuzz_inputs.KINDS)
    for kind in ("otf", "otf-z", "cubex", "json", "csv", "asl"):
        assert {"flipped", "cut", "junk"} <= ways[kind], (kind, ways[kind])
    assert ways["otf"] & {"field"} and ways["cubex"] & {"field"} and ways["json"] & {"/"}
    assert ways["csv"] & {"cell"} and ways["asl"] & {"token"} and ways["sql"] & {"word"}


if __name__ == "__main__":
    import tempfile

    n = int(sys.argv[1]) if len(sys.argv) > 1 else MUTANTS
    seed = int(sys.argv[2]) if len(sys.argv) > 2 else SEED
    helper = Loader()
    total = collections.Counter()
    for name in sys.argv[3:] or [TRACE]:
        with tempfile.TemporaryDirectory() as scratch:
            t0 = time.perf_counter()
            outcomes, failures, seconds = fuzz(TRACES / name, Path(scratch), n, seed, helper)
            slowest = max(range(n), key=seconds.__getitem__)
            _, target, what = make_mutant(TRACES / name, Path(scratch), slowest, seed)
            print(
                f"{name}: {dict(outcomes)}, {len(failures)} failures, {time.perf_counter() - t0:.1f} s "
                f"(slowest load {seconds[slowest]:.2f} s: mutant {slowest}, {target} {what})"
            )
            print("\n".join(failures))
            total.update(outcomes)
    helper.close()
