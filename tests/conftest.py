"""Shared helpers: build a constructed trace, load it, query it."""

import fcntl
import functools
import json
import os
import shutil
import signal
import sys
import tarfile
import tempfile
from collections.abc import Callable
from pathlib import Path

import duckdb
import pyarrow as pa
import pyarrow.compute as pc
import pytest
from cli_process import cosydb  # noqa: F401 - a cosydb command line forked from a helper
from cosydb.fixtures.generator import TraceBuilder

from cosydb import catalog as catalog_mod
from cosydb import database, tables
from cosydb.loading import load, load_runs

TRACES = Path(__file__).resolve().parents[2] / "shared" / "traces"

# Cache compiled modules (__pycache__, ignored by git) although PYTHONDONTWRITEBYTECODE may be
# set: every pytest-xdist worker (started after this) would otherwise rewrite the asserts of
# every test module and compile cosydb again (about 2 s per worker and run).
sys.dont_write_bytecode = False
os.environ.pop("PYTHONDONTWRITEBYTECODE", None)


#: the installed console script, for tests about the real process (signals, lifecycle)
COSYDB = str(Path(sys.executable).with_name("cosydb"))


def small_trace(tmp_path):
    """A 2-rank run (main calling work) written under ``tmp_path/run``; returns the run directory."""
    b = TraceBuilder(2)
    for r in range(2):
        with b[r].open("main", 0, 1000):
            b[r].region("work", 10, 900)
    return b.write(tmp_path / "run").parent


def small_db(tmp_path_factory) -> Path:
    """``small_trace`` loaded by the ``cosydb`` command line into a new database; its path."""
    tmp = tmp_path_factory.mktemp("small")
    db = tmp / "small.cosydb"
    loaded = cosydb("load", small_trace(tmp), "--db", db)
    assert loaded.returncode == 0, loaded.stderr
    return db


def assert_clean_failure(result, needle):
    """Exit code 2, one line on stderr holding ``needle``, no traceback."""
    assert result.returncode == 2, result
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and needle in lines[0], result.stderr
    assert "Traceback" not in result.stderr + result.stdout


NS = 1e-9


def report(b, tmp_path, **kw):
    """Write ``b``'s trace, load it and report on it with threshold 0 (every row listed):
    the whole catalog end to end (``evaluate`` checks a few entries cheaply)."""
    return full_report(loaded_db(b, tmp_path), **kw)


def full_report(db, **kw):
    """``cosydb.report.run`` on loaded database ``db`` with threshold 0, and ``evaluated``: the
    properties whose rows it shows (those asked with ``properties``, default all)."""
    from cosydb.report import run

    result = run(db, threshold=0, **kw)
    catalog = catalog_mod.load(kw.get("properties_dirs", ()))
    shown = kw.get("properties") or [name for name, p in catalog.items() if p.kind == "property"]
    unevaluable = {name for names in result["not_evaluable"].values() for name in names}
    result["evaluated"] = set(shown) - unevaluable
    return result


#: A plug-in wait state (``plug_in_wait``).
PLUG_IN_WAIT = """{{#---
kind: property
parent: {parent}
unit: s
wait_state: {wait_state}
info: A plug-in wait state.
description: {ns} ns at {path} on rank {rank}.
diagnosis: None.
---#}}
SELECT c.callpath_id, NULL::BIGINT AS region_id, l.location_id, NULL::VARCHAR AS condition_id,
       true AS condition, 1.0 AS confidence, 0.0 AS severity, {ns}e-9 AS value, NULL::VARCHAR AS details
FROM {{{{ ref('callpaths') }}}} AS c, {{{{ ref('locations') }}}} AS l
WHERE c.path = '{path}' AND l.rank = {rank}
"""


def plug_in_wait(folder: Path, wait_state: str, parent: str, path: str, rank: int, ns: int) -> Path:
    """A plug-in directory under ``folder`` whose one property, ``plugin_wait`` (``wait_state``
    its header's, under ``parent``), waits ``ns`` ns at call path ``path`` on ``rank``."""
    plugin = folder / "plug-ins" / "waits" / "plugin_wait.sql"
    plugin.parent.mkdir(parents=True)
    plugin.write_text(PLUG_IN_WAIT.format(wait_state=wait_state, parent=parent, path=path, rank=rank, ns=ns))
    return plugin.parent.parent


def loaded_db(b, folder) -> Path:
    """Write ``b``'s trace under ``folder``/run and load it into ``folder``/run.cosydb; returns the database."""
    load(b.write(folder / "run"), folder / "run.cosydb")
    return folder / "run.cosydb"


def evaluate(db, *names, properties_dirs=(), params=None, experiment=None, baseline=None) -> dict:
    """Evaluate only the properties ``names`` and the entries they ``ref()`` on loaded database
    ``db`` at threshold 0, storing nothing: what ``full_report`` returns (``results``: their
    listed rows, ``problems``, ``critical_path``, ``root_causes``, ``not_evaluable``,
    ``evaluated``), and ``stored``: all their rows, also those whose condition fails. An
    entry's error is the engine's CosyError, which names its file. The report's decisions
    (``results``, made at once, ``problems``, ...) are made when the test first reads them."""
    from cosydb import evaluator
    from cosydb import report as report_mod

    catalog, listed = catalogs(tuple(properties_dirs))
    params = dict(params or {})
    report_mod._check_selection(catalog, list(names), params)
    con = database.connect(db)
    try:
        exp = report_mod.choose_experiment(con, Path(db), experiment)
        base = report_mod.choose_experiment(con, Path(db), baseline)["experiment_id"] if baseline else None
        values = dict(params, p_rank_basis=None)
        evaluation = evaluator.evaluate(con, catalog, exp["experiment_id"], values, sorted(names), base)
        results = evaluation.results(0.0, None)
        results = results.filter(pc.is_in(results.column("property"), pa.array(names, pa.string())))
        # most tests read the rows listed: decided on this connection, the rest on first read
        decided = report_mod.decide(con, exp["experiment_id"], results, listed, ["rows"])
    finally:
        con.close()
    stored = results.to_pylist()
    for row in stored:
        row["details"] = json.loads(row["details"]) if row["details"] else None
    return _Evaluated(
        (db, exp["experiment_id"], results, listed),
        evaluated={name for name in names if evaluation.evaluated(name)},
        stored=[row for row in stored if row["status"] == "evaluated"],
        results=decided["rows"],
    )


def catalogs(properties_dirs: tuple) -> tuple[dict, pa.Table]:
    """The catalog with plug-ins ``properties_dirs`` and its ``property_catalog`` table (the
    built-in one's kept for the session: no test changes cosydb's own files)."""
    from cosydb import report as report_mod

    if properties_dirs:
        catalog = catalog_mod.load(properties_dirs)
        return catalog, report_mod.catalog_table(catalog)
    return _builtin_catalog()


@functools.cache
def _builtin_catalog() -> tuple[dict, pa.Table]:
    from cosydb import report as report_mod

    catalog = catalog_mod.load()
    return catalog, report_mod.catalog_table(catalog)


class _Evaluated(dict):
    """``evaluate``'s result, which makes each of the report's decisions (``report.decide``)
    on the first read of its key: most tests read one of them, and each is a query."""

    #: key: the decision (``report.DECISIONS``)
    DECIDED = {
        "results": "rows",
        "problems": "problems",
        "critical_path": "critical_path",
        "root_causes": "root_causes",
        "not_evaluable": "not_evaluable",
        "phases": "phases",
    }

    def __init__(self, evaluation: tuple, **known):
        super().__init__(**known)
        self._evaluation = evaluation  # (db, experiment_id, results, property_catalog table)

    def __or__(self, other: dict) -> "_Evaluated":
        return _Evaluated(self._evaluation, **self, **other)

    def __missing__(self, key):
        from cosydb import report as report_mod

        if key not in self.DECIDED:
            raise KeyError(key)
        db, experiment_id, results, listed = self._evaluation
        con = database.connect(db)
        try:
            part = self.DECIDED[key]
            self[key] = report_mod.decide(con, experiment_id, results, listed, [part])[part]
        finally:
            con.close()
        return self[key]


def evaluated_rows(result, prop, key="results") -> list:
    """The rows (``results``: listed, ``stored``: all) of property ``prop``, which the report
    or evaluation must have evaluated: a property not selected, misspelt or not evaluable
    fails here instead of showing no rows."""
    if prop not in result["evaluated"]:
        why = [reason for reason, names in result["not_evaluable"].items() if prop in names]
        raise AssertionError(f"{prop} was not evaluated ({why[0] if why else 'not selected'})")
    return [r for r in result[key] if r["property"] == prop]


#: Properties of a call path's own (exclusive) time, which hold at the program root too.
OWN_TIME_PROPERTIES = {"imbalance", "critical_path_imbalance"}


def aggregate_places(result) -> set:
    """The places of the report's problems, but those of OWN_TIME_PROPERTIES."""
    return {p["place"] for e in result["problems"] if e["property"] not in OWN_TIME_PROPERTIES for p in e["places"]}


def property_rows(result, prop, all_processes=True):
    """{callpath: value} of one evaluated property's listed rows (all-process rows, or {(callpath, rank): value})."""
    got = {}
    for r in evaluated_rows(result, prop):
        if all_processes and r["rank"] is None:
            got[r["callpath"]] = r["value"]
        elif not all_processes and r["rank"] is not None:
            got[(r["callpath"], r["rank"])] = r["value"]
    return got


class ConstructedRuns:
    """A test module's constructed runs, loaded together into one database by its ``runs``
    fixture: ``load_runs`` derives runs that fit one partition with the same statements
    (sixteen two-rank runs take 3.3 s together, 0.65 s each alone). Register the function
    that builds a run's ``TraceBuilder`` with ``@RUNS.run()``, or ``@RUNS.run(args, ...)``
    for one run per tuple of its arguments."""

    def __init__(self):
        self.makers: dict[str, Callable[[], TraceBuilder]] = {}

    def run(self, *variants: tuple):
        def register(make):
            for args in variants or [()]:
                self.makers[run_name(make, args)] = functools.partial(make, *args)
            return make

        return register


def run_name(make: Callable, args: tuple = ()) -> str:
    """The experiment name of the run ``make(*args)`` builds."""
    return make.__name__ + (f"[{','.join(map(str, args))}]" if args else "")


class LoadedRuns:
    """The ``runs`` fixture: a module's ``ConstructedRuns`` loaded into database ``db``."""

    def __init__(self, db: Path):
        self.db = db

    def evaluate(self, make: Callable, *names: str, args: tuple = (), **options) -> dict:
        """``evaluate`` on the experiment of the run ``make(*args)`` builds."""
        return evaluate(self.db, *names, experiment=run_name(make, args), **options)


@pytest.fixture(scope="module")
def runs(request, tmp_path_factory) -> LoadedRuns:
    """The module's ``RUNS`` (a ``ConstructedRuns``), each run written and all loaded
    together into one database, one experiment per run."""
    makers = request.module.RUNS.makers
    folder = tmp_path_factory.mktemp("runs")
    anchors = [make().write(folder / f"run{i}") for i, make in enumerate(makers.values())]
    load_runs(anchors, folder / "runs.cosydb", list(makers))
    return LoadedRuns(folder / "runs.cosydb")


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
    run ``report`` on it only replace its stored results. ``LARGE`` is unpacked first.
    Under pytest-xdist every worker reads a copy of its own (``made_once``)."""
    loaded = {}

    def load_into(db: Path, name: str) -> None:
        scratch = db.parent
        trace = real_trace(name if name != LARGE else LARGE + ".tar.xz")
        if name == LARGE:
            with tarfile.open(trace) as archive:
                archive.extractall(scratch, filter="data")
            trace = scratch / Path(LARGE).name
        load(trace, db)

    def get(name: str) -> Path:
        if name not in loaded:
            db_name = f"{Path(name).name}.cosydb"
            loaded[name] = made_once(tmp_path_factory, name.replace("/", "_"), db_name, lambda db: load_into(db, name))
        return loaded[name]

    return get


def made_once(tmp_path_factory, key: str, db_name: str, make: Callable[[Path], None]) -> Path:
    """Database ``db_name`` made by ``make(path)`` once per test run, in a folder of this
    worker's (named short: a report's suggested commands print the database's path).
    Under pytest-xdist the first worker to ask makes it in the run's shared directory
    (``key``: its folder there; the other workers wait for it, as two loads at once would
    share the cores) and every worker gets a copy of its own (a copy of a database is one:
    its views file rewritten)."""
    if not os.environ.get("PYTEST_XDIST_WORKER"):
        db = tmp_path_factory.mktemp("db") / db_name
        make(db)
        return db
    once = tmp_path_factory.getbasetemp().parent / "made-once" / key / db_name
    once.parent.mkdir(parents=True, exist_ok=True)
    with open(once.parent / ".lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if not database.is_database(once):
            make(once)
    return copy_of(once, tmp_path_factory.mktemp("db"))


def copy_of(db: Path, folder: Path) -> Path:
    """A copy of loaded database ``db`` in ``folder`` (a test that adds to it leaves ``db`` as
    it was), its views file rewritten at once: the copied one reads ``db``'s files."""
    copy = Path(shutil.copytree(db, folder / db.name))
    database.write_views(copy)
    return copy


def differing_rows(con, ours: str, theirs: str, columns: list[str], doubles: set[str]) -> int:
    """Rows of relations ``ours`` and ``theirs`` that differ, paired in the order of all
    ``columns`` (doubles last): doubles within 1e-9 relative, the rest equal."""
    columns = [c for c in columns if c not in doubles] + [c for c in columns if c in doubles]
    listed = ", ".join(columns)
    same = " and ".join(
        f"((s.{c} is null and d.{c} is null) or abs(s.{c} - d.{c}) <= 1e-9 * greatest(abs(s.{c}), abs(d.{c})) + 1e-12)"
        if c in doubles
        else f"s.{c} is not distinct from d.{c}"
        for c in columns
    )
    return con.execute(
        f"""
        with s as (select row_number() over (order by {listed}) as k, * from (select {listed} from {ours})),
            d as (select row_number() over (order by {listed}) as k, * from (select {listed} from {theirs}))
        select count(*) from s full join d using (k) where s.k is null or d.k is null or not ({same})
        """
    ).fetchone()[0]


def assert_stored_tables_equal(ours: Path, theirs: Path, experiments: tuple[int, int] = (1, 1)) -> None:
    """Every stored table of database ``ours`` has the rows of ``theirs``: of their
    ``experiments`` (ids in each; the ``experiment_id`` column itself is not compared)."""
    con = duckdb.connect()
    dirs = [database.experiment_dir(Path(db), k) for db, k in zip((ours, theirs), experiments)]
    compared = 0
    for name, table in tables.stored().items():
        # property_evaluation records the engine that evaluated (spark, duckdb)
        if name in ("experiments", "load_warnings", "property_evaluation") or not table.files(dirs[1]):
            continue
        ours_rel, theirs_rel = (f"read_parquet({[str(p) for p in table.files(d)]})" for d in dirs)
        described = con.execute(f"describe select * from {theirs_rel}").fetchall()
        # left out: hashes (an identity per engine), when a report ran, and its JSON details
        # (the same numbers as value, printed to the last digit)
        columns = [
            c
            for c, *_ in described
            if not c.endswith("_hash") and c not in ("evaluated_at", "details", "experiment_id")
        ]
        doubles = {c for c, t, *_ in described if t == "DOUBLE"}
        assert differing_rows(con, ours_rel, theirs_rel, columns, doubles) == 0, name
        compared += 1
    assert compared >= 40


# pytest-xdist runs one worker per core: each worker's DuckDB uses one thread (cosydb's
# documented COSYDB_THREADS, which every connection of database.connect honours), not one
# per core, so that the workers do not oversubscribe the cores. A test that sets it itself
# (monkeypatch) still does; the evaluation's entries side by side, which need two threads,
# are tested on a connection set to two (test_evaluator).
if os.environ.get("PYTEST_XDIST_WORKER"):
    os.environ.setdefault("COSYDB_THREADS", "1")


#: Modules that take longest, in that order: they start first, so that with pytest-xdist
#: (``--dist loadscope``: a module runs on one worker) no long module is left for last and
#: the workers end together (longest first; the modules not listed, each under 3 s in the
#: fast tier, follow in their own order). The tiers' long modules lead; then the fast
#: tier's by their seconds in it (docs/contributing.md says how to measure them).
SLOW_MODULES = [
    "test_dialects.py",  # the Spark tier's
    "test_fuzz.py",  # the slow tier's
    "test_data_safety.py",
    "test_lifecycle.py",
    "test_asl.py",  # the fast tier's, 2026-12-05: 22 s
    "test_evaluator.py",
    "test_report_reuse.py",
    "test_otf_v1.py",
    "test_cli.py",
    "test_sql_readonly.py",
    "test_problem_list.py",
    "test_report_view.py",
    "test_cli_safety.py",
    "test_views_file.py",
    "test_profiles.py",
    "test_scalasca_agreement.py",
    "test_asl_appendices.py",
    "test_api.py",
    "test_properties_p2p.py",
    "test_latesender_wo_history.py",
    "test_wrong_order_forms.py",
    "test_delay_costs.py",
    "test_partitions.py",
    "test_run_phases.py",
    "test_perfetto.py",
    "test_properties_asl.py",
    "test_load_runs.py",
    "test_hostile_names.py",
    "test_openmp.py",
    "test_real_traces.py",
    "test_summary_input.py",
    "test_critical_path.py",
    "test_export.py",  # 3 s
]


#: Long tests that run on whichever worker is free, each on its own (a scope of its own for
#: ``--dist loadscope``), not on the worker of the rest of their module: the Spark tier's
#: comparisons with DuckDB, a few minutes each. A worker that runs one starts its own JVM.
SPREAD_TESTS = (
    "tests/test_dialects.py::test_load_and_report_on_spark_equal_duckdb[",
    "tests/test_dialects.py::test_compiled_asl_properties_on_spark_equal_duckdb[",
    "tests/test_dialects.py::test_cli_load_and_report_on_a_standalone_cluster_equal_duckdb",
)


def pytest_configure(config):
    """The views files that cosydb keeps for reuse (``database._kept_dir``) are kept in a
    directory of this test run, which its workers share, not in the user's cache. SIGINT
    ignored (pytest started as a background job of a shell script) is restored, since the
    commands the tests interrupt with it would inherit the ignoring and never stop."""
    if signal.getsignal(signal.SIGINT) == signal.SIG_IGN:
        signal.signal(signal.SIGINT, signal.default_int_handler)
    if "PYTEST_XDIST_WORKER" not in os.environ:
        folder = tempfile.mkdtemp(prefix="cosydb-kept-")
        os.environ["COSYDB_CACHE_DIR"] = folder
        config.add_cleanup(lambda: shutil.rmtree(folder, ignore_errors=True))


def pytest_xdist_make_scheduler(config, log):
    """``--dist loadscope`` with the ``SPREAD_TESTS`` each a scope of its own."""
    if config.getoption("dist") != "loadscope":
        return None
    from xdist.scheduler import LoadScopeScheduling

    class SpreadScheduling(LoadScopeScheduling):
        def _split_scope(self, nodeid: str) -> str:
            return nodeid if nodeid.startswith(SPREAD_TESTS) else super()._split_scope(nodeid)

    return SpreadScheduling(config, log)


#: The fixtures that make a test need a tier's resources, and the tier's marker.
TIER_FIXTURES = {"spark_session": "spark", "standalone_cluster": "spark", "bare_env": "spark", "page": "browser"}


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
