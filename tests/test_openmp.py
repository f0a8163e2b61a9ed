"""OpenMP: the model enhancement (parallel-region instances, teams, shared call paths) and
Scalasca's OpenMP wait states against constructed timings (1 tick = 1 ns).

Every expected number is worked out by hand in the comments from the times the scenario
constructs; LULESH (real, hybrid) is compared with Scalasca in test_evaluator.py.
"""

import pytest
from conftest import ConstructedRuns, evaluate, evaluated_rows, rows, run_name
from cosydb.fixtures.generator import TraceBuilder

from cosydb import catalog, database, evaluator
from cosydb.loading import load_runs

NS = 1e-9
PAR = "!$omp parallel @a.c:1"
IBAR = "!$omp implicit barrier @a.c:9"
CRIT = "!$omp critical @a.c:5"

#: the constructed runs of this module's tests, loaded together (``runs``)
RUNS = ConstructedRuns()


def experiment_id(con, make) -> int:
    """The id of the experiment of the run ``make()`` in the ``runs`` database on ``con``."""
    return con.execute("SELECT experiment_id FROM experiments WHERE name = ?", [run_name(make)]).fetchone()[0]


@RUNS.run()
def two_thread_run():
    """1 rank, 2 threads. Master: main 0..10000, init 100..1000, fork at 1000, join at 6500,
    finish 7000..9000. Parallel region (team begin / Enter / work / implicit barrier /
    Leave / team end): thread 0 1100 / 1200 / 1210..4990 / 5000..5900 / 6000 / 6100,
    thread 1 1300 / 1400 / 1410..2990 / 3000..5900 / 6000 / 6200."""
    b = TraceBuilder(1, threads=2)
    master = b[0]
    with master.open("main", 0, 10_000):
        master.region("init", 100, 1000)
        master.fork(1000, 2)
        for t, (begin, enter, barrier, end) in {0: (1100, 1200, 5000, 6100), 1: (1300, 1400, 3000, 6200)}.items():
            thread = b.thread(0, t)
            thread.team_begin(begin)
            with thread.open(PAR, enter, 6000):
                thread.region("work", enter + 10, barrier - 10)
                thread.region(IBAR, barrier, 5900)
            thread.team_end(end)
        master.join(6500)
        master.region("finish", 7000, 9000)
    return b


def per_thread(result, prop):
    """{(call path, thread): value} of one property's per-location rows."""
    return {(r["callpath"], r["thread"]): r["value"] for r in evaluated_rows(result, prop) if r["rank"] is not None}


def test_team_threads_share_the_master_call_paths(runs):
    con = database.connect(runs.db)
    experiment = experiment_id(con, two_thread_run)
    teams = rows(
        con,
        "SELECT thread, team_begin_time, enter_time, team_end_time, fork_time, join_time, team_size, "
        "process_threads "
        "FROM parallel_instances WHERE experiment_id = ? ORDER BY thread",
        [experiment],
    )
    assert [
        (
            t["thread"],
            t["team_begin_time"],
            t["enter_time"],
            t["team_end_time"],
            t["fork_time"],
            t["join_time"],
            t["team_size"],
            t["process_threads"],
        )
        for t in teams
    ] == [(0, 1100, 1200, 6100, 1000, 6500, 2, 2), (1, 1300, 1400, 6200, 1000, 6500, 2, 2)]
    paths = rows(
        con,
        """SELECT c.path, l.thread, count(*) AS n FROM region_instances i
        JOIN callpaths c USING (experiment_id, callpath_id) JOIN locations l USING (experiment_id, location_id)
        WHERE experiment_id = ? GROUP BY ALL ORDER BY ALL""",
        [experiment],
    )
    # the worker's parallel region hangs under the master's main, like Scalasca's call tree
    assert {(p["path"], p["thread"]) for p in paths if p["thread"] == 1} == {
        (f"prog/main/{PAR}", 1),
        (f"prog/main/{PAR}/work", 1),
        (f"prog/main/{PAR}/{IBAR}", 1),
    }


def test_fork_join_management_and_implicit_barrier_wait(runs):
    result = runs.evaluate(two_thread_run, "omp_fork", "omp_management", "omp_ibarrier_wait")
    par = f"prog/main/{PAR}"
    # fork: 1200 - 1000 = 200, 1400 - 1000 = 400; join: 6500 - 6000 on both threads
    assert per_thread(result, "omp_fork") == {(par, 0): pytest.approx(200 * NS), (par, 1): pytest.approx(400 * NS)}
    assert per_thread(result, "omp_management") == {
        (par, 0): pytest.approx(700 * NS),
        (par, 1): pytest.approx(900 * NS),
    }
    # the team's barrier: thread 1 enters at 3000, the last thread at 5000
    assert per_thread(result, "omp_ibarrier_wait") == {(f"{par}/{IBAR}", 1): pytest.approx(2000 * NS)}


def test_idle_threads_and_the_time_hierarchy(runs):
    con = database.connect(runs.db)
    try:
        evaluation = evaluator.evaluate(con, catalog.load(), experiment_id(con, two_thread_run), {}, ["time_cube"])
        total = dict(
            evaluation.query("SELECT metric, sum(inclusive) FROM {{ ref('time_cube') }} GROUP BY 1").fetchall()
        )
        by_thread = {
            (m, p, t): v
            for m, p, t, v in evaluation.query("""
            SELECT metric, c.path, l.thread, exclusive FROM {{ ref('time_cube') }}
            JOIN {{ ref('callpaths') }} c USING (callpath_id) JOIN {{ ref('locations') }} l USING (location_id)
            WHERE exclusive <> 0""").fetchall()
        }
    finally:
        con.close()
    # master outside the parallel region: main 10000 - 900 - 4800 - 2000 = 2300, less its fork and
    # join intervals (200 + 500) that count as the parallel region's = 1600; init 900, finish 2000
    assert by_thread[("omp_idle_threads", "prog/main", 1)] == pytest.approx(1600 * NS)
    assert total["omp_idle_threads"] == pytest.approx(4500 * NS)
    # each thread holds its CPU for the whole run: 2 x 10000; execution = time - idle
    assert total["time"] == pytest.approx(20_000 * NS) and total["execution"] == pytest.approx(15_500 * NS)
    # OpenMP time: management 700 + 900, implicit barrier 900 + 2900
    assert total["omp_management"] == pytest.approx(1600 * NS) and total["omp_ibarrier"] == pytest.approx(3800 * NS)
    assert total["omp_time"] == pytest.approx(5400 * NS)
    # computation: master 1600 + 900 + 2000 + 120 (parallel region itself) + 3780, worker 120 + 1580
    assert total["comp"] == pytest.approx(10_100 * NS)
    assert by_thread[("comp", "prog/main", 0)] == pytest.approx(1600 * NS)
    assert total.get("omp_limited_parallelism", 0) == 0 and total.get("omp_ebarrier_wait", 0) == 0


@RUNS.run()
def smaller_team_run() -> TraceBuilder:
    """3 threads, a region forked with 2: main 0..1000, fork 100, thread 0 in the region
    110..500, thread 1 120..500, join 600; thread 2 idles from fork to join."""
    b = TraceBuilder(1, threads=3)
    with b[0].open("main", 0, 1000):
        b[0].fork(100, 2)
        for t, enter in ((0, 110), (1, 120)):
            thread = b.thread(0, t)
            thread.team_begin(enter - 5)
            thread.region(PAR, enter, 500)
            thread.team_end(505)
        b[0].join(600)
    b.thread(0, 2).region("helper_not_in_team", 2000, 2001)  # thread 2 exists, outside every team
    return b


def test_limited_parallelism(runs):
    """test_openmp.smaller_team_run: thread 2 idles from fork to join."""
    result = runs.evaluate(smaller_team_run, "omp_idle_threads", "omp_limited_parallelism")
    assert per_thread(result, "omp_limited_parallelism") == {(f"prog/main/{PAR}", 2): pytest.approx(500 * NS)}
    # serial master time: main 1000 - 390 - (10 + 100) = 500 for threads 1 and 2, plus the 500 above
    idle = per_thread(result, "omp_idle_threads")
    assert idle[("prog/main", 1)] == pytest.approx(500 * NS) and idle[("prog/main", 2)] == pytest.approx(500 * NS)
    assert sum(idle.values()) == pytest.approx(1500 * NS)


@RUNS.run()
def explicit_barriers_run():
    """Two explicit barriers in one parallel region: thread 0 enters them at 200 and 700,
    thread 1 at 300 and 600."""
    b = TraceBuilder(1, threads=2)
    with b[0].open("main", 0, 2000):
        b[0].fork(10, 2)
        for t, (first, second) in ((0, (200, 700)), (1, (300, 600))):
            thread = b.thread(0, t)
            thread.team_begin(15)
            with thread.open(PAR, 20, 1000):
                thread.region("!$omp barrier @a.c:3", first, 400)
                thread.region("!$omp barrier @a.c:3", second, 800)
            thread.team_end(1005)
        b[0].join(1010)
    return b


def test_explicit_barriers_match_by_their_order_in_the_region(runs):
    """explicit_barriers_run: the k-th barrier of each thread is one team barrier."""
    result = runs.evaluate(explicit_barriers_run, "omp_ebarrier_wait", "omp_ibarrier_wait")
    path = f"prog/main/{PAR}/!$omp barrier @a.c:3"
    # first barrier: thread 0 waits 300 - 200; second: thread 1 waits 700 - 600
    assert per_thread(result, "omp_ebarrier_wait") == {
        (path, 0): pytest.approx(100 * NS),
        (path, 1): pytest.approx(100 * NS),
    }
    assert per_thread(result, "omp_ibarrier_wait") == {}


@RUNS.run()
def lock_contention_run():
    """Critical section (lock 1): thread 0 enters 200, acquires 210, releases 400; thread 1
    enters 250, acquires 410. omp_set_lock (lock 7): thread 0 in the call 600..620, acquires
    610, releases at 705 in omp_unset_lock; thread 1 calls at 650, acquires 715."""
    b = TraceBuilder(1, threads=2)
    with b[0].open("main", 0, 2000):
        b[0].fork(10, 2)
        timings = {
            0: (200, 210, 400, 410, 600, 610, 620, 700, 705, 710),
            1: (250, 410, 500, 510, 650, 715, 720, 730, 735, 740),
        }
        for t, (enter, acquire, release, leave, set_in, got, set_out, unset_in, freed, unset_out) in timings.items():
            thread = b.thread(0, t)
            thread.team_begin(15)
            with thread.open(PAR, 20, 1000):
                with thread.open(CRIT, enter, leave):
                    thread.acquire_lock(acquire, 1, t + 1)
                    thread.release_lock(release, 1, t + 1)
                with thread.open("omp_set_lock", set_in, set_out):
                    thread.acquire_lock(got, 7, t + 1)
                with thread.open("omp_unset_lock", unset_in, unset_out):
                    thread.release_lock(freed, 7, t + 1)
            thread.team_end(1005)
        b[0].join(1010)
    return b


def test_lock_contention_at_critical_sections_and_lock_calls(runs):
    result = runs.evaluate(lock_contention_run, "omp_lock_contention_critical", "omp_lock_contention_api")
    # thread 1 waits for the release at 400 from its Enter at 250; at the lock call from 650 to 705
    assert per_thread(result, "omp_lock_contention_critical") == {
        (f"prog/main/{PAR}/{CRIT}", 1): pytest.approx(150 * NS)
    }
    assert per_thread(result, "omp_lock_contention_api") == {
        (f"prog/main/{PAR}/omp_set_lock", 1): pytest.approx(55 * NS)
    }


@RUNS.run()
def mpi_only_run():
    """2 ranks, no threads: main 0..1000, MPI_Barrier from 100 (rank 0) and 400 (rank 1) to 700."""
    b = TraceBuilder(2)
    for r in range(2):
        with b[r].open("main", 0, 1000):
            b[r].collective("MPI_Barrier", 100 + 300 * r, 700)
    return b


def test_mpi_only_traces_have_no_openmp_time(runs):
    con = database.connect(runs.db)
    try:
        evaluation = evaluator.evaluate(con, catalog.load(), experiment_id(con, mpi_only_run), {}, ["time_cube"])
        total = dict(
            evaluation.query("SELECT metric, sum(inclusive) FROM {{ ref('time_cube') }} GROUP BY 1").fetchall()
        )
    finally:
        con.close()
    assert total["time"] == pytest.approx(2000 * NS) and total["execution"] == pytest.approx(2000 * NS)
    assert total.get("omp_time", 0) == 0 and total.get("omp_idle_threads", 0) == 0


def test_asl_openmp_summary_measured_by_the_trace(runs):
    """The ASL SmRegionSummary of two_thread_run, worked out from its timings."""
    con = database.connect(runs.db)
    try:
        evaluation = evaluator.evaluate(con, catalog.load(), experiment_id(con, two_thread_run), {}, ["sm_summary"])
        got = {
            (p, loc, inst): dict(zip(("kind", "n", "threads", "duration", "wait", "ctrl", "npc"), rest))
            for p, loc, inst, *rest in evaluation.query("""
            SELECT c.path, l.thread, s.instance_no, s.kind, s.nr_executions, s.nr_threads, s.duration,
                   s.region_wait, s.region_ctrl, s.non_parallelized_code
            FROM {{ ref('sm_summary') }} s JOIN {{ ref('callpaths') }} c USING (callpath_id)
            LEFT JOIN {{ ref('locations') }} l USING (location_id)""").fetchall()
        }
    finally:
        con.close()
    par = f"prog/main/{PAR}"
    region = got[(par, None, None)]
    # master: 4800 in the region + fork 200 + join 500; wait at the barrier: mean of 0 and 2000;
    # control: fork + join 700 + the barrier's 900 not spent waiting
    assert (region["kind"], region["n"]) == ("PRegion", 1)
    assert region["duration"] == pytest.approx(5500 * NS) and region["wait"] == pytest.approx(1000 * NS)
    assert region["ctrl"] == pytest.approx(1600 * NS)
    assert got[(par, None, 1)]["threads"] == 2
    worker = got[(par, 1, None)]  # 4600 + 400 + 500; waits 2000; fork + join 900 + barrier 2900 - 2000
    assert worker["duration"] == pytest.approx(5500 * NS) and worker["wait"] == pytest.approx(2000 * NS)
    assert worker["ctrl"] == pytest.approx(1800 * NS)
    # sequential call paths: the master's serial time below them (main 1600 + init 900 + finish 2000)
    assert got[("prog/main", None, None)]["kind"] == "Function"
    assert got[("prog/main", None, None)]["npc"] == pytest.approx(4500 * NS)
    assert got[("prog/main/init", None, None)]["npc"] == pytest.approx(900 * NS)
    result = runs.evaluate(two_thread_run, "openmp_load_imbalance", "openmp_remote_accesses")
    imbalance = [r for r in result["results"] if r["property"] == "openmp_load_imbalance"]
    # severity against the master's whole run (10000)
    assert [(r["callpath"], r["value"], r["severity"]) for r in imbalance] == [
        (par, pytest.approx(1000 * NS), pytest.approx(0.1))
    ]
    status = {r["property"]: r["status"] for r in result["results"]}
    assert (
        status["openmp_remote_accesses"]
        == "not evaluable: no machine constant remote_access_time (ASL summary input, system)"
    )


@RUNS.run()
def sequential_run():
    """two_thread_run's program traced on one thread, where main takes 16000."""
    seq = TraceBuilder(1)
    with seq[0].open("main", 0, 16_000):
        seq[0].fork(1000, 1)
        seq[0].team_begin(1100)
        seq[0].region(PAR, 1200, 12_000)
        seq[0].team_end(12_100)
        seq[0].join(12_200)
    return seq


@pytest.mark.parametrize("other_runs", [False, True])
def test_openmp_costs_of_a_traced_run_against_a_sequential_trace(runs, tmp_path, other_runs):
    """two_thread_run against sequential_run: openmp_costs at main = 10000 - 16000 / 2
    threads = 2000. The same beside the module's other runs in their database (the
    evaluation reads the files of the two it compares only)."""
    if other_runs:
        db, par, seq = runs.db, run_name(two_thread_run), run_name(sequential_run)
    else:
        db, par, seq = tmp_path / "both.cosydb", "par", "seq"
        load_runs([sequential_run().write(tmp_path / seq), two_thread_run().write(tmp_path / par)], db, [seq, par])
    result = evaluate(db, "openmp_costs", experiment=par, baseline=seq)
    costs = {r["callpath"]: r["value"] for r in result["results"] if r["property"] == "openmp_costs"}
    # the parallel region: master 5500 (fork to join) against 10800 / 2 = 5400 on one thread
    assert costs == {
        "prog/main": pytest.approx(2000 * NS),
        "prog": pytest.approx(2000 * NS),
        f"prog/main/{PAR}": pytest.approx(100 * NS),
    }


@RUNS.run()
def lock_acquisitions_run():
    """One lock acquired by thread 0 (order 1, 210..400) then thread 1 (order 2, 410..500)."""
    b = TraceBuilder(1, threads=2)
    with b[0].open("main", 0, 2000):
        b[0].fork(10, 2)
        for t, (enter, acquire, release, leave) in ((0, (200, 210, 400, 410)), (1, (250, 410, 500, 510))):
            thread = b.thread(0, t)
            thread.team_begin(15)
            with thread.open(PAR, 20, 1000):
                with thread.open(CRIT, enter, leave):
                    thread.acquire_lock(acquire, 1, t + 1)
                    thread.release_lock(release, 1, t + 1)
            thread.team_end(1005)
        b[0].join(1010)
    return b


def test_lock_acquisitions_pair_acquire_and_release(runs):
    con = database.connect(runs.db)
    got = con.execute(
        """SELECT l.thread, a.acquisition_order, a.acquire_time, a.release_time, a.previous_release_time,
                  a.call_enter_time
           FROM lock_acquisitions a JOIN locations l USING (experiment_id, location_id)
           WHERE experiment_id = ? ORDER BY 2""",
        [experiment_id(con, lock_acquisitions_run)],
    ).fetchall()
    assert got == [(0, 1, 210, 400, None, 200), (1, 2, 410, 500, 400, 250)]


@RUNS.run()
def legacy_fork_join_run():
    """A team forked and joined by OmpFork/OmpJoin (older Score-P, no team records)."""
    b = TraceBuilder(1, threads=2)
    with b[0].open("main", 0, 1000):
        b[0].fork(100, 2, legacy=True)
        b.thread(0, 0).region(PAR, 150, 600)
        b.thread(0, 1).region(PAR, 250, 600)
        b[0].join(700, legacy=True)
    return b


def test_older_omp_fork_and_join_records(runs):
    """OmpFork/OmpJoin (older Score-P, no team records) open and close the team as well."""
    result = runs.evaluate(legacy_fork_join_run, "omp_fork", "omp_management")
    # fork 150 - 100 and 250 - 100; join 700 - 600 on both threads
    assert per_thread(result, "omp_fork") == {
        (f"prog/main/{PAR}", 0): pytest.approx(50 * NS),
        (f"prog/main/{PAR}", 1): pytest.approx(150 * NS),
    }
    assert sum(per_thread(result, "omp_management").values()) == pytest.approx(400 * NS)
