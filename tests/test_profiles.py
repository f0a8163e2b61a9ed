"""CUBE4 profiles: mapping into the summary tables, properties without a trace, bad input,
and the cross-check of a real run's profile against its trace.

Constructed profiles are written by ``fixtures/profile_builder.py`` from exclusive values
chosen here; every expected number is computed by hand from them.
"""

import tarfile
from pathlib import Path

import pytest
from conftest import assert_clean_failure, copy_of, cosydb, evaluate, real_trace, rows, small_db
from cosydb.fixtures.profile_builder import ProfileBuilder, write_tar

from cosydb import catalog, database
from cosydb.loading import load, load_runs
from cosydb.report import run


def solver_profile(counters=()):
    """2 ranks. Exclusive times (s) rank 0 / rank 1: main 1.0 / 1.5, solver 2.0 / 2.5 (10 visits),
    MPI_Send in solver 0.25 / - (10 visits, 8000 bytes), MPI_Recv in solver - / 0.75 (10 visits,
    8000 bytes), MPI_Barrier in main 0.5 / 0.1 (1 visit)."""
    p = ProfileBuilder(2, counters=counters)
    for r, (main, solver) in enumerate([(1.0, 2.0), (1.5, 2.5)]):
        p.add("prog", r, visits=1)
        p.add("prog/main", r, visits=1, time=main)
        p.add("prog/main/solver", r, visits=10, time=solver)
    p.add("prog/main/solver/MPI_Send", 0, visits=10, time=0.25, bytes_sent=8000)
    p.add("prog/main/solver/MPI_Recv", 1, visits=10, time=0.75, bytes_received=8000)
    p.add("prog/main/MPI_Barrier", 0, visits=1, time=0.5)
    p.add("prog/main/MPI_Barrier", 1, visits=1, time=0.1)
    return p


def thread_profile():
    """1 rank, 2 threads, PAPI_TOT_CYC. Exclusive: main 1.0 s and 100 cycles on thread 0;
    omp_region (4 visits) 0.25 s and 30 cycles on thread 0, 0.5 s and 40 cycles on thread 1."""
    p = ProfileBuilder(1, threads=2, counters=("PAPI_TOT_CYC",))
    p.add("prog/main", 0, visits=1, time=1.0, PAPI_TOT_CYC=100)
    p.add("prog/main/omp_region", 1, visits=4, time=0.5, PAPI_TOT_CYC=40)
    p.add("prog/main/omp_region", 0, visits=4, time=0.25, PAPI_TOT_CYC=30)
    return p


CACHE = ("PAPI_L1_DCM", "PAPI_LD_INS", "PAPI_SR_INS")


def cache_profile():
    """The cache_run of test_properties_asl as a profile: 1200 L1 misses in kernel; loads +
    stores of the run 2 * 3000."""
    p = ProfileBuilder(2, counters=CACHE)
    for r, misses in enumerate((400, 800)):
        p.add("prog/main", r, visits=1, time=1.0, PAPI_LD_INS=1000)
        p.add("prog/main/kernel", r, visits=2, time=0.5, PAPI_L1_DCM=misses, PAPI_LD_INS=1200, PAPI_SR_INS=800)
    return p


@pytest.fixture(scope="module")
def profiles(tmp_path_factory) -> tuple[Path, dict]:
    """solver_profile (written as run/profile.cubex), thread_profile and cache_profile loaded
    together, one experiment each under its default name: the database and {builder: experiment id}."""
    folder = tmp_path_factory.mktemp("profiles")
    makers = [solver_profile, thread_profile, cache_profile]
    sources = [solver_profile().write(folder / "run" / "profile.cubex")]
    sources += [make().write(folder / make.__name__ / "profile.cubex") for make in makers[1:]]
    metas = load_runs(sources, folder / "profiles.cosydb")
    return folder / "profiles.cosydb", {make: meta["experiment_id"] for make, meta in zip(makers, metas)}


def summary(con, experiment_id=1):
    return {
        (r["path"], r["rank"]): r
        for r in rows(
            con,
            """
        SELECT c.path, l.rank, s.* FROM mpi_summary s JOIN callpaths c USING (experiment_id, callpath_id)
        LEFT JOIN locations l USING (experiment_id, location_id) WHERE experiment_id = ?""",
            [experiment_id],
        )
    }


def test_profile_maps_into_the_mpi_summary(profiles):
    db, ids = profiles
    experiment = ids[solver_profile]
    con = database.connect(db)
    assert con.execute(
        "SELECT is_profile, format, name FROM experiments WHERE experiment_id = ?", [experiment]
    ).fetchone() == (True, "cube4", "run-profile")
    s = summary(con, experiment)
    # time is stored inclusive (Score-P): cosydb recovers the exclusive values and keeps both
    assert s[("prog/main", 0)]["excl_s"] == pytest.approx(1.0)
    assert s[("prog/main", 0)]["incl_s"] == pytest.approx(1.0 + 2.0 + 0.25 + 0.5)
    assert s[("prog/main/solver", 1)]["incl_s"] == pytest.approx(2.5 + 0.75)
    assert s[("prog/main/solver", 1)]["executions"] == 10
    # CommTime / SyncTime over the subtree; bytes over the subtree; a profile counts no messages
    assert s[("prog/main", 0)]["comm_s"] == pytest.approx(0.25) and s[("prog/main", 0)]["sync_s"] == pytest.approx(0.5)
    assert s[("prog/main", None)]["comm_s"] == pytest.approx(1.0)
    assert s[("prog/main", None)]["bytes_sent"] == 8000 and s[("prog/main", None)]["bytes_received"] == 8000
    assert s[("prog/main", None)]["messages_sent"] is None
    # a call path visited on one rank only has no row on the other
    assert ("prog/main/solver/MPI_Recv", 0) not in s and ("prog/main/solver/MPI_Recv", 1) in s
    # locations carry Score-P's OTF2 ids (thread << 32 | rank); min_time has no data, so no values
    locations = con.execute("SELECT location_id FROM locations WHERE experiment_id = ? ORDER BY 1", [experiment])
    assert [r[0] for r in locations.fetchall()] == [0, 1]
    assert (
        con.execute(
            "SELECT count(*) FROM profile_values JOIN profile_metrics USING (experiment_id, metric_id) "
            "WHERE name = 'min_time' AND experiment_id = ?",
            [experiment],
        ).fetchone()[0]
        == 0
    )


def test_thread_locations_and_counter_metrics(profiles):
    db, ids = profiles
    experiment = ids[thread_profile]
    con = database.connect(db)
    locations = con.execute(
        "SELECT location_id, rank, thread FROM locations WHERE experiment_id = ? ORDER BY 1", [experiment]
    )
    assert locations.fetchall() == [
        (0, 0, 0),
        (1 << 32, 0, 1),
    ]
    counters = {
        (r["path"], r["thread"]): r
        for r in rows(
            con,
            """
        SELECT c.path, l.thread, s.* FROM counter_summary s JOIN callpaths c USING (experiment_id, callpath_id)
        JOIN locations l USING (experiment_id, location_id) WHERE experiment_id = ?""",
            [experiment],
        )
    }
    # PAPI_TOT_CYC is stored inclusive: main on thread 0 = 100 own + 30 in omp_region
    assert counters[("prog/main", 0)]["incl"] == 130 and counters[("prog/main", 0)]["excl"] == 100
    assert (
        counters[("prog/main/omp_region", 1)]["excl"] == 40 and counters[("prog/main/omp_region", 1)]["executions"] == 4
    )
    metrics = con.execute("SELECT name, metric_type FROM metrics WHERE experiment_id = ?", [experiment])
    assert metrics.fetchall() == [("PAPI_TOT_CYC", "PAPI")]


def test_cache_properties_on_a_profile(profiles):
    """cache_profile: the per-instance properties need a trace."""
    db, ids = profiles
    result = evaluate(
        db,
        "l1_data_cache_misses",
        "l1d_cache_misses_per_instance",
        "l1_inst_cache_misses",
        experiment=str(ids[cache_profile]),
    )
    got = {
        r["callpath"]: r
        for r in result["results"]
        if r["property"] == "l1_data_cache_misses" and r["rank"] is None and r["status"] == "evaluated"
    }
    assert set(got) == {"prog", "prog/main", "prog/main/kernel"}
    assert got["prog/main/kernel"]["value"] == 1200 and got["prog/main/kernel"]["severity"] == pytest.approx(0.2)
    status = {r["property"]: r["status"] for r in result["results"]}
    assert status["l1d_cache_misses_per_instance"] == "not evaluable: needs a trace"
    assert status["l1_inst_cache_misses"] == "not evaluable: no PAPI_L1_ICM metric"


def test_summary_properties_run_and_trace_properties_say_why_not(profiles, tmp_path):
    """solver_profile through the whole report (on a copy: the report stores its results)."""
    db, ids = profiles
    result = run(copy_of(db, tmp_path), experiment=str(ids[solver_profile]), threshold=0)
    basis = (1.0 + 2.0 + 0.25 + 0.5) + (1.5 + 2.5 + 0.75 + 0.1)  # the two roots' inclusive time
    by = {}
    for r in result["results"]:
        by.setdefault(r["property"], []).append(r)
    # Cost family and comm-call properties from the summary alone
    comm = {r["callpath"]: r for r in by["comm_cost"] if r["rank"] is None}
    assert comm["prog/main"]["value"] == pytest.approx(1.0) and comm["prog/main"]["severity"] == pytest.approx(
        1.0 / basis
    )
    dominating = [r for r in by["dominating_comm_function"] if r["condition"]]
    assert [(r["region"], r["value"]) for r in dominating] == [("MPI_Recv", pytest.approx(0.75))]
    # LoadImbalanceAtBarrier on a profile: COND1 only (max - min of Incl = 0.5 - 0.1), no idle times
    [barrier] = by["load_imbalance_at_barrier"]
    assert barrier["condition_id"] == "COND1" and barrier["value"] == pytest.approx(0.4)
    assert barrier["severity"] == pytest.approx(0.4 / (basis / 2))
    # everything that needs events is reported as such, never as a zero
    trace_only = {p.name for p in catalog.load().values() if "trace" in p.requires and p.kind == "property"}
    assert {"late_sender", "mpi_latesender", "mpi_wait_nxn", "idle_late_sender", "slow_slaves"} <= trace_only
    for name in trace_only:
        assert [r["status"] for r in by[name]] == ["not evaluable: needs a trace"], name
    statuses = {r["status"] for rs in by.values() for r in rs}
    assert {s for s in statuses if "summar" not in s and "baseline" not in s} <= {
        "evaluated",
        "not evaluable: needs a trace",
        "not evaluable: no PAPI metrics",
    }


def test_trace_and_profile_of_one_run_in_one_database(tmp_path):
    """The same constructed times as a trace (1 tick = 1 ns) and as a profile line up row by row."""
    from cosydb.fixtures.generator import TraceBuilder

    b = TraceBuilder(2)
    p = ProfileBuilder(2)
    for r in range(2):
        with b[r].open("main", 0, 1000):
            b[r].region("work", 100, 400 + 100 * r)
            b[r].collective("MPI_Barrier", 600, 900)
        p.add("prog", r, visits=1).add("prog/main", r, visits=1, time=(1000 - (300 + 100 * r) - 300) * 1e-9)
        p.add("prog/main/work", r, visits=1, time=(300 + 100 * r) * 1e-9)
        p.add("prog/main/MPI_Barrier", r, visits=1, time=300e-9)
    db = tmp_path / "both.cosydb"
    load_runs([b.write(tmp_path / "run"), p.write(tmp_path / "run" / "profile.cubex")], db)
    con = database.connect(db)
    assert con.execute("SELECT name FROM experiments ORDER BY experiment_id").fetchall() == [("run",), ("run-profile",)]
    trace, profile = summary(con, 1), summary(con, 2)
    for key in ("prog/main", "prog/main/work", "prog/main/MPI_Barrier"):
        for rank in (0, 1, None):
            t, q = trace[(key, rank)], profile[(key, rank)]
            assert t["executions"] == q["executions"], (key, rank)
            assert t["incl_s"] == pytest.approx(q["incl_s"], abs=1e-15), (key, rank)
            assert t["sync_s"] == pytest.approx(q["sync_s"], abs=1e-15), (key, rank)


@pytest.fixture(scope="module")
def trace_db(tmp_path_factory) -> Path:
    """``small_db``: a small trace loaded by the command line, once for the module."""
    return small_db(tmp_path_factory)


def _members(path):
    with tarfile.open(path) as tar:
        return {m.name: tar.extractfile(m).read() for m in tar.getmembers()}


@pytest.mark.parametrize(
    "damage, message",
    [
        ("garbage", "not a CUBE4 profile (not a tar archive)"),
        ("no_anchor", "not a CUBE4 profile (no anchor.xml in the archive)"),
        ("bad_xml", "anchor.xml is not well-formed XML"),
        ("bad_index", "corrupt data of metric 'visits'"),
        ("short_data", "corrupt data of metric 'time'"),
        ("no_time", "the profile has no time metric; cosydb reads Score-P profiles"),
    ],
)
def test_bad_profile_is_one_line_and_writes_nothing(trace_db, tmp_path, damage, message):
    good = solver_profile().write(tmp_path / "good.cubex")
    members = _members(good)
    bad = tmp_path / "run" / "profile.cubex"
    bad.parent.mkdir()
    if damage == "garbage":
        bad.write_bytes(b"\x00not a cube file" * 50)
    elif damage == "no_anchor":
        write_tar(bad, {k: v for k, v in members.items() if k != "anchor.xml"})
    elif damage == "bad_xml":
        write_tar(bad, {**members, "anchor.xml": members["anchor.xml"][:200]})
    elif damage == "bad_index":
        write_tar(bad, {**members, "0.index": b"CUBEX.INDEX" + b"\x01\x00\x00\x00\x00\x00\x01" + b"\x05\x00"})
    elif damage == "short_data":
        write_tar(bad, {**members, "1.data": members["1.data"][:-12]})
    elif damage == "no_time":
        write_tar(
            bad, {**members, "anchor.xml": members["anchor.xml"].replace(b"<uniq_name>time<", b"<uniq_name>tim<")}
        )
    result = cosydb("load", bad, "--db", tmp_path / "x.cosydb")
    assert_clean_failure(result, f"profile.cubex: {message}")
    assert not (tmp_path / "x.cosydb").exists()
    # loading into an existing database leaves it as it was
    existing = copy_of(trace_db, tmp_path)
    before = sorted(p.name for p in (existing / "experiments").iterdir())
    assert_clean_failure(cosydb("load", bad, "--db", existing), message)
    assert sorted(p.name for p in (existing / "experiments").iterdir()) == before


def test_directory_with_neither_trace_nor_profile(tmp_path):
    (tmp_path / "empty").mkdir()
    assert_clean_failure(
        cosydb("load", tmp_path / "empty", "--db", tmp_path / "x.cosydb"),
        "empty: directory holds no traces.otf2 anchor file and no OTF master file (*.otf) and no profile.cubex",
    )


# --- the cross-check: two independent measurements of one real run ----------------------------

RUNS = [
    "scorep-late_sender",
    "scorep-late_receiver",
    "scorep-barrier",
    "scorep-collectives",
    "hpccg-8-small",
    "minife-8-small",
]


@pytest.fixture(scope="module", params=RUNS)
def trace_and_profile(request, real_db, tmp_path_factory):
    path = real_trace(request.param)
    db = copy_of(real_db(request.param), tmp_path_factory.mktemp("cross"))
    load(path / "profile.cubex", db)
    con = database.connect(db)
    yield request.param, db, con
    con.close()


def test_profile_and_trace_summaries_agree(trace_and_profile):
    """Per (call path, rank): visits and bytes exactly; times after the trace's clock correction.

    OTF2 readers correct each rank's timestamps with the clock offsets Score-P measured
    (rank 0 is the reference), stretching that rank's durations by a constant rate; the
    profile holds raw durations. With one rate per rank, taken from the run's root call
    path, every time agrees within a few ticks (2e-8 s), and the rates are within 0.4 %
    of 1 (these oversubscribed runs drift most).
    """
    name, _, con = trace_and_profile
    joined = rows(
        con,
        """
        WITH s AS (
            SELECT s.*, c.path, c.parent_id IS NULL AS is_root, l.rank, l.thread
            FROM callpath_profile s JOIN callpaths c USING (experiment_id, callpath_id)
            JOIN locations l USING (experiment_id, location_id))
        SELECT path, rank, thread, t.is_root, t.executions AS t_visits, p.executions AS p_visits,
               t.incl_s AS t_incl, p.incl_s AS p_incl, t.excl_s AS t_excl, p.excl_s AS p_excl,
               t.bytes_sent AS t_sent, p.bytes_sent AS p_sent, t.bytes_received AS t_rcvd, p.bytes_received AS p_rcvd
        FROM (SELECT * FROM s WHERE experiment_id = 1) t
        FULL JOIN (SELECT * FROM s WHERE experiment_id = 2) p USING (path, rank, thread)""",
    )
    assert len(joined) > 10
    missing = [(r["path"], r["rank"]) for r in joined if r["t_visits"] is None or r["p_visits"] is None]
    assert missing == [], f"{name}: call paths in only one of trace and profile"
    for r in joined:
        assert (r["t_visits"], r["t_sent"], r["t_rcvd"]) == (r["p_visits"], r["p_sent"], r["p_rcvd"]), (name, r)
    rate = {r["rank"]: r["t_incl"] / r["p_incl"] for r in joined if r["is_root"]}
    assert rate[0] == pytest.approx(1, abs=1e-12)
    assert all(abs(f - 1) < 4e-3 for f in rate.values()), rate
    for r in joined:
        f = rate[r["rank"]]
        assert r["t_incl"] == pytest.approx(r["p_incl"] * f, abs=2e-8), (name, r)
        assert r["t_excl"] == pytest.approx(r["p_excl"] * f, abs=2e-8), (name, r)


SUMMARY_PROPERTIES = [
    "total_cost",
    "comm_cost",
    "sync_cost",
    "io_cost",
    "dominating_comm_function",
    "dominating_comm_call",
    "frequent_communication",
    "big_messages",
    "uneven_mp_distribution",
    "frequent_comm_in_process",
    "frequent_comm_some_processes",
]


def test_summary_properties_agree_on_trace_and_profile(trace_and_profile):
    """The ASL summary properties give the same problems from the profile as from the trace
    (values within the clock correction, 0.4 %). LoadImbalanceAtBarrier has only COND1 on a
    profile: max - min of the barrier's Incl over the processes, as the trace measures it."""
    name, db, con = trace_and_profile
    found = {}
    for experiment in (name, f"{name}-profile"):
        result = evaluate(db, *SUMMARY_PROPERTIES, "load_imbalance_at_barrier", experiment=experiment)
        found[experiment] = {
            (r["property"], r["callpath"] or r["region"], r["rank"], r["condition_id"]): r
            for r in result["results"]
            if r["status"] == "evaluated"
        }
    trace, profile = found[name], found[f"{name}-profile"]
    spread = dict(
        con.execute("""
        SELECT c.path, max(s.incl_s) - min(s.incl_s) FROM mpi_summary s
        JOIN callpaths c USING (experiment_id, callpath_id)
        JOIN regions r ON r.experiment_id = s.experiment_id AND r.region_id = s.region_id
        WHERE s.experiment_id = 1 AND r.name = 'MPI_Barrier' AND s.location_id IS NOT NULL
        GROUP BY c.path""").fetchall()
    )
    barrier = {k[1]: r for k, r in profile.items() if k[0] == "load_imbalance_at_barrier"}
    assert set(barrier) == set(spread) and {k[3] for k in profile if k[0] == "load_imbalance_at_barrier"} <= {"COND1"}
    for path, row in barrier.items():
        assert row["value"] == pytest.approx(spread[path], rel=4e-3, abs=1e-6), path
    trace = {k: v for k, v in trace.items() if k[0] != "load_imbalance_at_barrier"}
    profile = {k: v for k, v in profile.items() if k[0] != "load_imbalance_at_barrier"}
    assert len(profile) > 5
    assert set(trace) == set(profile)
    for key, row in trace.items():
        assert profile[key]["condition"] == row["condition"], key
        assert profile[key]["value"] == pytest.approx(row["value"], rel=4e-3, abs=1e-6), key
