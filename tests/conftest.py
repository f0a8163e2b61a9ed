"""Shared helpers: build a constructed trace, load it, query it."""

import os
import sys
import tarfile
from pathlib import Path

import pytest
from cli_process import cosydb  # noqa: F401 - a cosydb command line forked from a helper
from cosydb.fixtures.generator import TraceBuilder

from cosydb import database
from cosydb.loading import load

TRACES = Path(__file__).resolve().parents[2] / "shared" / "traces"


#: the installed console script, for tests about the real process (signals, lifecycle)
COSYDB = str(Path(sys.executable).with_name("cosydb"))


def small_trace(tmp_path):
    """A 2-rank run (main calling work) written under ``tmp_path/run``; returns the run directory."""
    b = TraceBuilder(2)
    for r in range(2):
        with b[r].open("main", 0, 1000):
            b[r].region("work", 10, 900)
    return b.write(tmp_path / "run").parent


def assert_clean_failure(result, needle):
    """Exit code 2, one line on stderr holding ``needle``, no traceback."""
    assert result.returncode == 2, result
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and needle in lines[0], result.stderr
    assert "Traceback" not in result.stderr + result.stdout


NS = 1e-9


def report(b, tmp_path, **kw):
    """Write ``b``'s trace, load it and report on it with threshold 0 (every row listed)."""
    from cosydb.report import run

    load(b.write(tmp_path / "run"), tmp_path / "run.cosydb")
    return run(tmp_path / "run.cosydb", threshold=0, **kw)


#: Properties of a call path's own (exclusive) time, which hold at the program root too.
OWN_TIME_PROPERTIES = {"imbalance", "critical_path_imbalance"}


def aggregate_places(result) -> set:
    """The places of the report's problems, but those of OWN_TIME_PROPERTIES."""
    return {p["place"] for e in result["problems"] if e["property"] not in OWN_TIME_PROPERTIES for p in e["places"]}


def property_rows(result, prop, all_processes=True):
    """{callpath: value} of one property's listed rows (all-process rows, or {(callpath, rank): value})."""
    got = {}
    for r in result["results"]:
        if r["property"] != prop or r["status"] != "evaluated":
            continue
        if all_processes and r["rank"] is None:
            got[r["callpath"]] = r["value"]
        elif not all_processes and r["rank"] is not None:
            got[(r["callpath"], r["rank"])] = r["value"]
    return got


def load_built(builder: TraceBuilder, tmp_path: Path, name: str = "run"):
    """Write ``builder``'s trace, load it, and return an open read-only connection."""
    anchor = builder.write(tmp_path / name)
    db = tmp_path / f"{name}.cosydb"
    load(anchor, db)
    return database.connect(db)


def rows(con, sql, params=None):
    cur = con.execute(sql, params or [])
    names = [d[0] for d in cur.description]
    return [dict(zip(names, r)) for r in cur.fetchall()]


@pytest.fixture
def builder():
    return TraceBuilder


def real_trace(name: str) -> Path:
    path = TRACES / name
    if not path.exists():
        pytest.skip(f"{path} not present")
    return path


#: The shared real traces with Scalasca's reference analysis beside them.
SCALASCA_TRACES = [
    "scorep-late_sender",
    "scorep-late_receiver",
    "scorep-barrier",
    "scorep-collectives",
    "hpccg-8-small",
    "minife-8-small",
    "lulesh_hyb-8x2-small",
]
LARGE = "large/minife-16-large"
#: Scalasca's collective and MPI management wait-state metrics.
COLLECTIVE_METRICS = (
    "mpi_barrier_wait",
    "mpi_barrier_completion",
    "mpi_wait_nxn",
    "mpi_nxn_completion",
    "mpi_earlyreduce",
    "mpi_earlyscan",
    "mpi_latebroadcast",
    "mpi_init_completion",
    "mpi_finalize_wait",
)


@pytest.fixture(scope="session")
def real_db(tmp_path_factory):
    """Load a shared real trace once per test session: name -> database path. Tests that
    run ``report`` on it only replace its stored results. ``LARGE`` is unpacked first."""
    loaded = {}

    def get(name: str) -> Path:
        if name not in loaded:
            scratch = tmp_path_factory.mktemp("real")
            trace = real_trace(name if name != LARGE else LARGE + ".tar.xz")
            if name == LARGE:
                with tarfile.open(trace) as archive:
                    archive.extractall(scratch, filter="data")
                trace = scratch / Path(LARGE).name
            loaded[name] = scratch / f"{Path(name).name}.cosydb"
            load(trace, loaded[name])
        return loaded[name]

    return get


# pytest-xdist runs one worker per core: each worker's DuckDB uses one thread (cosydb's
# documented COSYDB_THREADS), not one per core, so that the workers do not oversubscribe
# the cores. A test that sets it itself (monkeypatch) still does.
if os.environ.get("PYTEST_XDIST_WORKER"):
    os.environ.setdefault("COSYDB_THREADS", "1")


#: Modules that take longest, in that order: they start first, so that with pytest-xdist
#: (``--dist loadscope``: a module runs on one worker) no long module is left for last.
SLOW_MODULES = [
    "test_dialects.py",
    "test_fuzz.py",
    "test_lifecycle.py",
    "test_scalasca_agreement.py",
    "test_engine.py",
    "test_profiles.py",
    "test_cli_safety.py",
    "test_properties_p2p.py",
    "test_properties_asl.py",
]


#: The fixtures that make a test need a tier's resources, and the tier's marker.
TIER_FIXTURES = {"spark_session": "spark", "standalone_cluster": "spark", "page": "browser"}


def pytest_collection_modifyitems(items):
    """Long modules first; the order within a module is kept. A test that uses a tier's
    fixture must carry the tier's marker, so that the default (fast) run never starts a JVM
    or a browser."""
    unmarked = [
        f"{item.nodeid} uses {fixture}: mark it @pytest.mark.{TIER_FIXTURES[fixture]}"
        for item in items
        for fixture in getattr(item, "fixturenames", ())
        if fixture in TIER_FIXTURES and item.get_closest_marker(TIER_FIXTURES[fixture]) is None
    ]
    if unmarked:
        raise pytest.UsageError("\n".join(unmarked))
    rank = {name: i for i, name in enumerate(SLOW_MODULES)}
    items.sort(key=lambda item: rank.get(item.path.name, len(rank)))
