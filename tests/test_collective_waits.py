"""Scalasca's collective and management wait states against constructed timings.

B / X are the MpiCollectiveBegin / End events (the generator's begin / end, default the
call's Enter / Leave); every expected value is computed by hand from the chosen ticks
(1 tick = 1 ns), never from an earlier output of cosydb.
"""

import pytest
from conftest import COLLECTIVE_METRICS, NS, ConstructedRuns, property_rows, report
from cosydb.fixtures.generator import TraceBuilder


def per_rank(result, prop):
    return {rank: value for (_, rank), value in property_rows(result, prop, all_processes=False).items()}


#: the constructed runs of this module's tests, loaded together (``runs``)
RUNS = ConstructedRuns()


@RUNS.run()
def sub_communicator_allreduce_run():
    b = TraceBuilder(4)
    b.communicator("sub", [1, 3])
    for r in range(4):
        with b[r].open("main", 0, 1000):
            if r == 1:
                b[r].collective("MPI_Allreduce", 100, 500, comm="sub", sent=8, received=8)
            if r == 3:
                b[r].collective("MPI_Allreduce", 300, 510, comm="sub", sent=8, received=8)
    return b


def test_allreduce_on_a_sub_communicator(runs):
    result = runs.evaluate(sub_communicator_allreduce_run, "mpi_wait_nxn", "mpi_nxn_completion")
    # latest B = 300: rank 1 waits min(300, 500) - 100; earliest X = 500: rank 3 needs 510 - 500
    assert per_rank(result, "mpi_wait_nxn") == {1: pytest.approx(200 * NS)}
    assert per_rank(result, "mpi_nxn_completion") == {3: pytest.approx(10 * NS)}


def test_reduce_whose_root_arrives_early(tmp_path):
    b = TraceBuilder(3)
    timings = {0: (100, 600), 1: (300, 510), 2: (500, 520)}
    for r, (begin, end) in timings.items():
        with b[r].open("main", 0, 1000):
            b[r].collective("MPI_Reduce", begin, end, root=0, sent=0 if r == 0 else 8, received=24 if r == 0 else 0)
    result = report(b, tmp_path)  # the whole catalog, end to end
    # on the root only: min(latest sender B = 500, X = 600) - B = 100
    assert per_rank(result, "mpi_earlyreduce") == {0: pytest.approx(400 * NS)}
    assert property_rows(result, "mpi_wait_nxn") == {} and property_rows(result, "mpi_latebroadcast") == {}


@RUNS.run()
def late_root_bcast_run():
    b = TraceBuilder(3)
    timings = {0: (400, 410), 1: (100, 450), 2: (200, 460)}
    for r, (begin, end) in timings.items():
        with b[r].open("main", 0, 1000):
            b[r].collective("MPI_Bcast", begin, end, root=0, sent=16 if r == 0 else 0, received=0 if r == 0 else 8)
    return b


def test_bcast_whose_root_arrives_late(runs):
    result = runs.evaluate(late_root_bcast_run, "mpi_latebroadcast")
    # non-root ranks: min(B of the root = 400, X) - B
    assert per_rank(result, "mpi_latebroadcast") == {1: pytest.approx(300 * NS), 2: pytest.approx(200 * NS)}
    assert property_rows(result, "mpi_latebroadcast") == {"prog/main/MPI_Bcast": pytest.approx(500 * NS)}


@RUNS.run()
def scan_run():
    b = TraceBuilder(3)
    timings = {0: (300, 310), 1: (100, 320), 2: (200, 330)}
    for r, (begin, end) in timings.items():
        with b[r].open("main", 0, 1000):
            b[r].collective("MPI_Scan", begin, end, sent=8, received=8)
    return b


def test_scan_waits_for_the_lower_ranks(runs):
    result = runs.evaluate(scan_run, "mpi_earlyscan")
    # rank 1: max B over ranks 0..1 = 300 -> 200; rank 2: max over 0..2 = 300 -> 100; rank 0 waits for nobody
    assert per_rank(result, "mpi_earlyscan") == {1: pytest.approx(200 * NS), 2: pytest.approx(100 * NS)}


@RUNS.run()
def barrier_completion_run():
    b = TraceBuilder(3)
    for r, end in enumerate((200, 300, 400)):
        with b[r].open("main", 0, 1000):
            b[r].collective("MPI_Barrier", 100, end)
    return b


def test_barrier_completion(runs):
    result = runs.evaluate(barrier_completion_run, "mpi_barrier_completion", "mpi_barrier_wait")
    # all arrive at 100; the first leaves at 200: X - max(200, min(100, X))
    assert per_rank(result, "mpi_barrier_completion") == {1: pytest.approx(100 * NS), 2: pytest.approx(200 * NS)}
    assert property_rows(result, "mpi_barrier_wait") == {}


@RUNS.run()
def init_finalize_skew_run():
    b = TraceBuilder(3)
    init = {0: (0, 100), 1: (0, 150), 2: (0, 120)}
    finalize = {0: (800, 900), 1: (850, 900), 2: (700, 900)}
    for r in range(3):
        with b[r].open("main", 0, 1000):
            b[r].region("MPI_Init", *init[r])
            b[r].region("MPI_Finalize", *finalize[r])
    return b


def test_init_and_finalize_skew(runs):
    result = runs.evaluate(init_finalize_skew_run, "mpi_init_completion", "mpi_finalize_wait")
    # Init: earliest L = 100, latest E = 0 -> L - max(100, min(0, L)); Finalize: min(max E = 850, L) - E
    assert per_rank(result, "mpi_init_completion") == {1: pytest.approx(50 * NS), 2: pytest.approx(20 * NS)}
    assert per_rank(result, "mpi_finalize_wait") == {0: pytest.approx(50 * NS), 2: pytest.approx(150 * NS)}


@RUNS.run()
def balanced_collectives_run():
    b = TraceBuilder(3)
    for r in range(3):
        with b[r].open("main", 0, 2000):
            b[r].region("MPI_Init", 0, 100)
            b[r].collective("MPI_Barrier", 200, 300)
            b[r].collective("MPI_Allreduce", 400, 500, sent=8, received=8)
            b[r].collective("MPI_Reduce", 600, 700, root=0, sent=8, received=8)
            b[r].collective("MPI_Bcast", 800, 900, root=0, sent=8, received=8)
            b[r].collective("MPI_Scan", 1000, 1100, sent=8, received=8)
            b[r].region("MPI_Finalize", 1900, 2000)
    return b


def test_balanced_collectives_have_no_wait_states(runs):
    result = runs.evaluate(balanced_collectives_run, *COLLECTIVE_METRICS)
    for metric in COLLECTIVE_METRICS:
        assert property_rows(result, metric) == {} and property_rows(result, metric, all_processes=False) == {}, metric
