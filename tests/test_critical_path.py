"""The critical path and the performance-impact metrics (Scalasca 2.6, CriticalPath.pattern)
against constructed timings.

Every expected value is computed by hand from the timings the scenario constructs (1 tick =
1 ns), never from an earlier output of cosydb. The path runs backwards from the Leave of
MPI_Finalize of the rank that entered it last to MPI_Init; a segment holds the exclusive
time between the Enter of the call it departs from and the Enter of the call it arrives at,
less the waiting time of the call it departs from.
"""

import pytest
from conftest import NS, evaluate, full_report, loaded_db, plug_in_wait, property_rows
from cosydb.fixtures.generator import TraceBuilder

from cosydb import catalog, database, evaluator

#: Scalasca's remapper heuristics of computational imbalance.
IMBALANCES = (
    "imbalance",
    "imbalance_above",
    "imbalance_above_single",
    "imbalance_below",
    "imbalance_below_bypass",
    "imbalance_below_singularity",
)
#: The critical path's imbalance and performance-impact metrics.
PATH_IMBALANCES = (
    "critical_path_imbalance",
    "critical_imbalance_impact",
    "inter_partition_imbalance",
    "intra_partition_imbalance",
)


@pytest.fixture(scope="module")
def late_sender(tmp_path_factory):
    """Rank 0 computes until 500 and sends; rank 1 waits in MPI_Recv from 100 (Late Sender,
    min(E(S) = 500, L(R) = 600) - E(R) = 400), computes 600..650 and enters MPI_Finalize
    last (650)."""
    b = TraceBuilder(2)
    with b[0].open("main", 0, 700):
        b[0].region("MPI_Init", 0, 10)
        b[0].region("work", 10, 500)
        b[0].mpi_send(500, 520, dst=1, tag=0, nbytes=8)
        b[0].region("MPI_Finalize", 600, 700)
    with b[1].open("main", 0, 700):
        b[1].region("MPI_Init", 0, 10)
        b[1].mpi_recv(100, 600, src=0, tag=0, nbytes=8)
        b[1].region("work", 600, 650)
        b[1].region("MPI_Finalize", 650, 700)
    return loaded_db(b, tmp_path_factory.mktemp("late_sender"))


@pytest.fixture(scope="module")
def barrier(tmp_path_factory):
    """Three ranks work 100, 200 and 300 ns before a barrier; rank 2 arrives last (310), so
    nobody waits for it and it enters MPI_Finalize last (325)."""
    b = TraceBuilder(3)
    for rank in range(3):
        finalize = 325 if rank == 2 else 320
        with b[rank].open("main", 0, 400):
            b[rank].region("MPI_Init", 0, 10)
            b[rank].region("work", 10, 110 + 100 * rank)
            b[rank].collective("MPI_Barrier", 110 + 100 * rank, 320)
            b[rank].region("MPI_Finalize", finalize, 400)
    return loaded_db(b, tmp_path_factory.mktemp("barrier"))


def test_path_jumps_from_the_waiting_receiver_to_the_late_sender(late_sender):
    late_sender = evaluate(late_sender, "critical_path")
    # rank 1 from E(MPI_Recv) = 100 to E(MPI_Finalize) = 650: MPI_Recv 500 less its wait 400,
    # work 50; then rank 0 from MPI_Init to E(MPI_Send) = 500: MPI_Init 10, work 490
    assert property_rows(late_sender, "critical_path", all_processes=False) == {
        ("prog/main/MPI_Recv", 1): pytest.approx(100 * NS),
        ("prog/main/work", 1): pytest.approx(50 * NS),
        ("prog/main/MPI_Init", 0): pytest.approx(10 * NS),
        ("prog/main/work", 0): pytest.approx(490 * NS),
    }
    # the path's length is the time until the last rank entered MPI_Finalize
    assert sum(property_rows(late_sender, "critical_path").values()) == pytest.approx(650 * NS)


def test_activities_on_and_off_the_path(late_sender):
    late_sender = evaluate(late_sender, "critical_path_activities", "non_critical_path_activities")
    # own time without waiting (local): rank 0 MPI_Init 10, work 490, MPI_Send 20, main 80,
    # MPI_Finalize 100 - its wait min(650, 700) - 600 = 50; rank 1 MPI_Init 10, MPI_Recv
    # 500 - 400, work 50, main 90, MPI_Finalize 50. On the path: MPI_Init 10, work 540, MPI_Recv 100.
    assert property_rows(late_sender, "critical_path_activities", all_processes=False) == {
        ("prog/main/MPI_Init", 0): pytest.approx(10 * NS),
        ("prog/main/MPI_Init", 1): pytest.approx(10 * NS),
        ("prog/main/work", 0): pytest.approx(490 * NS),
        ("prog/main/work", 1): pytest.approx(50 * NS),
        ("prog/main/MPI_Recv", 1): pytest.approx(100 * NS),
    }
    assert property_rows(late_sender, "non_critical_path_activities", all_processes=False) == {
        ("prog/main/MPI_Send", 0): pytest.approx(20 * NS),
        ("prog/main", 0): pytest.approx(80 * NS),
        ("prog/main/MPI_Finalize", 0): pytest.approx(50 * NS),
        ("prog/main", 1): pytest.approx(90 * NS),
        ("prog/main/MPI_Finalize", 1): pytest.approx(50 * NS),
    }


def test_imbalance_impact_spreads_each_ranks_waiting_over_its_shortfall(late_sender):
    late_sender = evaluate(
        late_sender, "critical_imbalance_impact", "inter_partition_imbalance", "intra_partition_imbalance"
    )
    # rank 0 waits 650 - 650 = 0; rank 1 waits 650 - 300 = 350, all of it short of the path in
    # work (540 - 50 = 490): global(work) = 350, shared by the path's work 490 : 50
    # (rank 1's MPI_Recv, 500 - 400 against 100 on the path, leaves a rounding residue in
    # seconds, below 1e-14 of the run's time: no row)
    impact = {
        ("prog/main/work", 0): pytest.approx(350 * 490 / 540 * NS),
        ("prog/main/work", 1): pytest.approx(350 * 50 / 540 * NS),
    }
    assert property_rows(late_sender, "critical_imbalance_impact", all_processes=False) == impact
    # every rank executes every call path of the path but rank 0 MPI_Recv: rank 1 has no
    # headroom (x / 0 in Scalasca's IEEE arithmetic), so there is no inter-partition imbalance
    assert property_rows(late_sender, "inter_partition_imbalance") == {}
    assert property_rows(late_sender, "intra_partition_imbalance", all_processes=False) == impact


def test_path_stays_on_the_last_rank_into_the_barrier(barrier):
    barrier = evaluate(barrier, "critical_path", "critical_imbalance_impact", "critical_path_activities")
    # rank 2 never waits (the barrier's latest arrival): from MPI_Init to E(MPI_Finalize) = 325
    assert property_rows(barrier, "critical_path", all_processes=False) == {
        ("prog/main/MPI_Init", 2): pytest.approx(10 * NS),
        ("prog/main/work", 2): pytest.approx(300 * NS),
        ("prog/main/MPI_Barrier", 2): pytest.approx(10 * NS),
        ("prog/main", 2): pytest.approx(5 * NS),
    }
    # every rank falls short of the path only where it did not work as long as rank 2:
    # rank 0 and 1 lack 200 and 100 ns of work, and rank 2, lacking nothing, makes Scalasca's
    # imbalance impact 0 / 0 (no impact anywhere)
    assert property_rows(barrier, "critical_imbalance_impact") == {}
    assert property_rows(barrier, "critical_path_activities", all_processes=False)[("prog/main/work", 0)] == (
        pytest.approx(100 * NS)
    )


def test_computation_imbalance_heuristics(tmp_path):
    """Scalasca's remapper heuristics: each rank's computation in a call path against the
    average over the ranks, and call paths some ranks never execute."""
    b = TraceBuilder(3)
    for rank in range(3):
        with b[rank].open("main", 0, 1000):
            b[rank].region("work", 0, 100 * (rank + 1))
            if rank == 0:
                b[rank].region("setup", 400, 460)
    result = evaluate(loaded_db(b, tmp_path), *IMBALANCES)

    def rows(prop):
        return property_rows(result, prop, all_processes=False)

    # main's own time: 1000 - 100, 1000 - 200, 1000 - 300 (and rank 0's setup 60): 840, 800,
    # 700, average 780; work: average 200; setup: 60 / 3 = 20
    assert rows("imbalance_above") == {
        ("prog/main", 0): pytest.approx(60 * NS),
        ("prog/main", 1): pytest.approx(20 * NS),
        ("prog/main/work", 2): pytest.approx(100 * NS),
        ("prog/main/setup", 0): pytest.approx(40 * NS),
    }
    assert rows("imbalance_below") == {
        ("prog/main", 2): pytest.approx(80 * NS),
        ("prog/main/work", 0): pytest.approx(100 * NS),
        ("prog/main/setup", 1): pytest.approx(20 * NS),
        ("prog/main/setup", 2): pytest.approx(20 * NS),
    }
    assert rows("imbalance") == {**rows("imbalance_above"), **rows("imbalance_below")}
    # setup, executed by rank 0 alone: the others bypass it at the average; rank 0 carries the
    # average of the two others
    bypassed = {("prog/main/setup", 1): pytest.approx(20 * NS), ("prog/main/setup", 2): pytest.approx(20 * NS)}
    assert rows("imbalance_below_bypass") == bypassed
    assert rows("imbalance_below_singularity") == bypassed
    assert rows("imbalance_above_single") == {("prog/main/setup", 0): pytest.approx(40 * NS)}


def test_critical_path_imbalance_is_the_paths_excess_over_the_average(barrier):
    barrier = evaluate(barrier, "critical_path_imbalance")
    # work: the path's 300 against the ranks' 100 + 200 + 300 over 3: (300 - 200) / 300 of 300;
    # main with its callees: the path's 325 against (3 * 400 - barrier waits 200 + 100 -
    # MPI_Finalize waits 5 + 5) / 3, of main's own 5 ns on the path; MPI_Init and the barrier
    # (10 each on the path, 10 without waiting on average) have none
    assert property_rows(barrier, "critical_path_imbalance", all_processes=False) == {
        ("prog/main/work", 2): pytest.approx(100 * NS),
        ("prog/main", 2): pytest.approx((325 - 890 / 3) / 325 * 5 * NS),
    }


#: Scalasca 2.6's waiting time that critical_path_imbalance subtracts (remapping.spec,
#: critical_path_imbalance) besides omp_ordered: the catalog's wait states under time that
#: wait for a partner and are not under another one.
SCALASCA_WAITING = {
    "mpi_finalize_wait",
    "mpi_barrier_wait",
    "mpi_latesender",
    "mpi_latereceiver",
    "mpi_earlyreduce",
    "mpi_earlyscan",
    "mpi_latebroadcast",
    "mpi_wait_nxn",
    "omp_management",
    "omp_ebarrier_wait",
    "omp_ibarrier_wait",
    "omp_lock_contention_critical",
    "omp_lock_contention_api",
    "omp_idle_threads",
}


def test_the_waiting_subtracted_is_scalascas_list():
    prop = catalog.load()["critical_path_imbalance"]
    rendered = evaluator.render(prop, catalog.load(), database.object_names())
    assert set(rendered.refs) - {"critical_path", "time_leaves", "rank_basis"} == SCALASCA_WAITING


@pytest.mark.parametrize("wait_state, waited", [("true", 30), ("{completion: true}", 0)])
def test_a_plug_in_wait_state_counts_as_waiting_and_a_completion_does_not(barrier, tmp_path, wait_state, waited):
    plugins = plug_in_wait(tmp_path, wait_state, "mpi_sync_collective", "prog/main/work", rank=2, ns=30)
    result = evaluate(barrier, "critical_path_imbalance", properties_dirs=[plugins])
    # as above, the ranks' time less waiting 30 ns lower where the plug-in waits: work's
    # (300 - (600 - 30) / 3) / 300 of 300, main's (325 - (890 - 30) / 3) / 325 of 5
    assert property_rows(result, "critical_path_imbalance", all_processes=False) == {
        ("prog/main/work", 2): pytest.approx((300 - (600 - waited) / 3) * NS),
        ("prog/main", 2): pytest.approx((325 - (890 - waited) / 3) / 325 * 5 * NS),
    }


def test_report_lists_the_paths_largest_activities(late_sender):
    # the root-cause section of the report (the whole catalog, end to end): the path's call
    # paths, most time on it first
    section = full_report(late_sender)["critical_path"]
    assert [(a["callpath"], round(a["on_path_s"] * 1e9, 6)) for a in section] == [
        ("prog/main/work", 540),
        ("prog/main/MPI_Recv", 100),
        ("prog/main/MPI_Init", 10),
    ]
    work = section[0]
    assert work["path_share"] == pytest.approx(540 / 650) and work["path_s"] == pytest.approx(650 * NS)
    assert [(x["rank"], round(x["value"] * 1e9, 6)) for x in work["locations"]] == [(0, 490), (1, 50)]


def test_a_balanced_run_has_a_path_but_no_imbalance(tmp_path):
    """Two ranks doing the same work and meeting at a barrier at the same time: nobody
    waits, so the path is one rank's run up to MPI_Finalize (a tie goes to the lowest rank)
    and every imbalance metric is empty."""
    b = TraceBuilder(2)
    for rank in range(2):
        with b[rank].open("main", 0, 200):
            b[rank].region("MPI_Init", 0, 10)
            b[rank].region("work", 10, 110)
            b[rank].collective("MPI_Barrier", 110, 120)
            b[rank].region("MPI_Finalize", 120, 200)
    result = evaluate(
        loaded_db(b, tmp_path), "critical_path", *PATH_IMBALANCES, "imbalance", "non_critical_path_activities"
    )
    assert property_rows(result, "critical_path", all_processes=False) == {
        ("prog/main/MPI_Init", 0): pytest.approx(10 * NS),
        ("prog/main/work", 0): pytest.approx(100 * NS),
        ("prog/main/MPI_Barrier", 0): pytest.approx(10 * NS),
    }
    for metric in (*PATH_IMBALANCES, "imbalance"):
        assert property_rows(result, metric) == {}, metric
    # off the path: only MPI_Finalize (80 ns on each rank; the path ends where it begins)
    assert property_rows(result, "non_critical_path_activities", all_processes=False) == {
        ("prog/main/MPI_Finalize", 0): pytest.approx(80 * NS),
        ("prog/main/MPI_Finalize", 1): pytest.approx(80 * NS),
    }
