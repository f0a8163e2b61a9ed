"""Scalasca's root-cause analysis (delay costs and wait-state classes, Delay.MPI.pattern,
Delay.OMP.pattern and Waitstates.MPI.pattern of Scalasca 2.6) against constructed timings.

Every expected value is computed by hand from the timings the scenario constructs (1 tick =
1 ns). The rules, in short: a wait's delayer compares its synchronisation interval (since it
last synchronised with the waiting rank; the call of that synchronisation counts with its
completion time only, MPI_Init's is 0 when all ranks leave it together) with the waiting
rank's, call path by call path, less the waits inside; the excess d is the delay. The wait
divides over d and the delayer's own waits w: short-term cost min(wait / (sum d + sum w), 1)
* d (collectives: wait / (sum d + sum w), one delayer, the rank that began last), and the
share of w travels on to w's own delayer as long-term cost.
"""

import pytest
from conftest import NS, evaluate, loaded_db, property_rows, report
from cosydb.fixtures.generator import TraceBuilder

from cosydb import report as report_mod

DELAY_METRICS = [
    f"delay_{c}{t}" for c in ("latesender", "latereceiver", "barrier", "n2n", "12n", "n21") for t in ("", "_longterm")
]
WAIT_CLASSES = [
    "mpi_wait_propagating_ls",
    "mpi_wait_propagating_lr",
    "mpi_wait_terminal_ls",
    "mpi_wait_terminal_lr",
    "mpi_wait_direct_latesender",
    "mpi_wait_direct_latereceiver",
    "mpi_wait_indirect_latesender",
    "mpi_wait_indirect_latereceiver",
]


def per_rank(result, prop) -> dict:
    return property_rows(result, prop, all_processes=False)


def totals(db) -> dict:
    """Each metric's inclusive total over the severity cube of ``db`` (categories such as
    delay sum their sub-metrics there)."""
    return {m["metric"]: m["inclusive"] for m in report_mod.cube(db)["metrics"]}


def analysed(b: TraceBuilder, folder) -> dict:
    """The report on ``b``'s trace (the whole catalog, end to end), with its ``totals``."""
    result = report(b, folder)
    result["totals"] = totals(folder / "run.cosydb")
    return result


@pytest.fixture(scope="module")
def chain(tmp_path_factory):
    """Rank 0 works 10..300 and sends to rank 1, which waits in MPI_Recv 100..300 (Late Sender
    200), works 300..320 and sends to rank 2, which waits in MPI_Recv 50..320 (Late Sender 270)."""
    b = TraceBuilder(3)
    with b[0].open("main", 0, 500):
        b[0].region("MPI_Init", 0, 10)
        b[0].region("work", 10, 300)
        b[0].mpi_send(300, 310, dst=1, tag=0, nbytes=8)
        b[0].region("MPI_Finalize", 400, 500)
    with b[1].open("main", 0, 500):
        b[1].region("MPI_Init", 0, 10)
        b[1].region("work", 10, 100)
        b[1].mpi_recv(100, 300, src=0, tag=0, nbytes=8)
        b[1].region("work", 300, 320)
        b[1].mpi_send(320, 330, dst=2, tag=0, nbytes=8)
        b[1].region("MPI_Finalize", 400, 500)
    with b[2].open("main", 0, 500):
        b[2].region("MPI_Init", 0, 10)
        b[2].region("work", 10, 50)
        b[2].mpi_recv(50, 320, src=1, tag=0, nbytes=8)
        b[2].region("MPI_Finalize", 400, 500)
    return loaded_db(b, tmp_path_factory.mktemp("chain"))


def test_chain_rank_0_delays_rank_1_short_term(chain):
    chain = evaluate(chain, "delay_latesender")
    # rank 1's wait: rank 0 since MPI_Init (its time 0: all ranks leave it at 10) worked 290 in
    # work against rank 1's 90 -> d = {work: 200}; no waits on rank 0: scale min(200/200, 1) = 1
    assert per_rank(chain, "delay_latesender")[("prog/main/work", 0)] == pytest.approx(200 * NS)


def test_chain_rank_1_delays_rank_2_partly_by_its_own_work(chain):
    chain = evaluate(chain, "delay_latesender", "delay_latesender_longterm", "mpi_latesender")
    # rank 2's wait 270: rank 1 since MPI_Init worked 90 + 20 = 110 against rank 2's 40 ->
    # d = {work: 70}; its MPI_Recv (200) is all waiting (200), so it is no delay, but the wait
    # 200 shares the blame: scale = min(270 / (70 + 200), 1) = 1
    assert per_rank(chain, "delay_latesender") == {
        ("prog/main/work", 0): pytest.approx(200 * NS),
        ("prog/main/work", 1): pytest.approx(70 * NS),
    }
    # the share of rank 1's wait, 1 * 200, is its long-term cost, passed to its own delayer:
    # 200 / (200 + 0) * d = 200 on rank 0's work
    assert per_rank(chain, "delay_latesender_longterm") == {("prog/main/work", 0): pytest.approx(200 * NS)}
    # all of the 470 waited is explained: 200 + 70 short-term, 200 long-term
    waited = sum(property_rows(chain, "mpi_latesender").values())
    explained = sum(property_rows(chain, "delay_latesender").values()) + sum(
        property_rows(chain, "delay_latesender_longterm").values()
    )
    assert (waited, explained) == (pytest.approx(470 * NS), pytest.approx(470 * NS))


#: A plug-in wait state, as a contributor adds one: one file, whose header declares its delay
#: class (the root causes explain it) and the report's name of that waiting. 30 ns waited.
MY_WAIT = """{#---
kind: property
parent: null
unit: s
wait_state: {class: latesender, label: Late Sender}
info: A wait of 30 ns.
description: One all-process row, 30 ns.
diagnosis: None.
---#}
SELECT NULL::BIGINT AS callpath_id, NULL::BIGINT AS region_id, NULL::BIGINT AS location_id,
       NULL::VARCHAR AS condition_id, true AS condition, 1.0 AS confidence, 0.1 AS severity,
       30e-9::DOUBLE AS value, NULL::VARCHAR AS details
"""


def test_the_root_causes_explain_the_wait_states_of_each_declared_class(chain, tmp_path):
    """The root causes of the Late Sender class (mpi_latesender's header declares it) are the
    delays of the chain, 470 ns waited; a plug-in wait state of the class, one file, adds its
    30 ns to the waited time, and a class no delay_<class> explains has no causes."""
    names = ("mpi_latesender", "delay_latesender", "delay_latesender_longterm")
    causes = evaluate(chain, *names)["root_causes"]
    assert [(c["class"], c["wait_label"], c["rank"], c["callpath"]) for c in causes] == [
        ("latesender", "Late Sender", 0, "prog/main/work"),
        ("latesender", "Late Sender", 1, "prog/main/work"),
    ]
    assert [c["cause_s"] for c in causes] == [pytest.approx(400 * NS), pytest.approx(70 * NS)]
    assert [c["waited_s"] for c in causes] == [pytest.approx(470 * NS)] * 2
    plugins = tmp_path / "props" / "mine"
    plugins.mkdir(parents=True)
    (plugins / "my_wait.sql").write_text(MY_WAIT)
    causes = evaluate(chain, *names, "my_wait", properties_dirs=[plugins.parent])["root_causes"]
    assert [c["waited_s"] for c in causes] == [pytest.approx(500 * NS)] * 2
    (plugins / "my_wait.sql").write_text(MY_WAIT.replace("latesender, label: Late Sender", "mine, label: x"))
    causes = evaluate(chain, *names, "my_wait", properties_dirs=[plugins.parent])["root_causes"]
    assert [(c["class"], c["waited_s"]) for c in causes] == [("latesender", pytest.approx(470 * NS))] * 2


def test_chain_wait_classes(chain):
    chain = evaluate(chain, *WAIT_CLASSES) | {"totals": totals(chain)}
    # rank 1's wait caused 1 * 200 of rank 2's: it propagates, all of it; rank 2's ends there
    assert per_rank(chain, "mpi_wait_propagating_ls") == {("prog/main/MPI_Recv", 1): pytest.approx(200 * NS)}
    assert per_rank(chain, "mpi_wait_terminal_ls") == {("prog/main/MPI_Recv", 2): pytest.approx(270 * NS)}
    # rank 2's wait is 200 indirect (its sender's own waiting, scale 1 * 200) and 70 direct
    assert per_rank(chain, "mpi_wait_indirect_latesender") == {("prog/main/MPI_Recv", 2): pytest.approx(200 * NS)}
    assert per_rank(chain, "mpi_wait_direct_latesender") == {
        ("prog/main/MPI_Recv", 1): pytest.approx(200 * NS),
        ("prog/main/MPI_Recv", 2): pytest.approx(70 * NS),
    }
    # the categories sum their children: every wait is explained once, as a delay
    assert chain["totals"]["delay"] == pytest.approx(470 * NS)
    assert chain["totals"]["delay_p2p"] == pytest.approx(470 * NS)
    # propagating + terminal and direct + indirect both split the point-to-point waiting
    assert chain["totals"]["waitstates_propagating_vs_terminal"] == pytest.approx(470 * NS)
    assert chain["totals"]["waitstates_direct_vs_indirect"] == pytest.approx(470 * NS)


@pytest.fixture(scope="module")
def late_barrier(tmp_path_factory):
    """Ranks 0 and 1 work 10..100, rank 2 10..250; all leave MPI_Barrier at 260 (ranks 0 and 1
    wait 150 each)."""
    b = TraceBuilder(3)
    for rank in range(3):
        arrive = 250 if rank == 2 else 100
        with b[rank].open("main", 0, 400):
            b[rank].region("MPI_Init", 0, 10)
            b[rank].region("work", 10, arrive)
            b[rank].collective("MPI_Barrier", arrive, 260)
            b[rank].region("MPI_Finalize", 300, 400)
    return loaded_db(b, tmp_path_factory.mktemp("late_barrier"))


def test_barrier_charges_the_late_ranks_extra_work(late_barrier):
    late_barrier = evaluate(late_barrier, "delay_barrier", "delay_barrier_longterm") | {"totals": totals(late_barrier)}
    # delayer rank 2 (began last): since MPI_Init it worked 240 against 90 on each waiting rank:
    # d = 150 each, scale 150 / 150 = 1; 150 + 150 at rank 2's work
    assert per_rank(late_barrier, "delay_barrier") == {("prog/main/work", 2): pytest.approx(300 * NS)}
    assert property_rows(late_barrier, "delay_barrier_longterm") == {}
    assert late_barrier["totals"]["delay_collective"] == pytest.approx(300 * NS)


@pytest.fixture(scope="module")
def two_late(tmp_path_factory):
    """Four ranks work until 100, 100, 200 and 250 and enter MPI_Allreduce (8 bytes each way),
    which all leave at 260: ranks 0 and 1 wait 150, rank 2 waits 50."""
    b = TraceBuilder(4)
    for rank, arrive in enumerate((100, 100, 200, 250)):
        with b[rank].open("main", 0, 400):
            b[rank].region("MPI_Init", 0, 10)
            b[rank].region("work", 10, arrive)
            b[rank].collective("MPI_Allreduce", arrive, 260, sent=8, received=8)
            b[rank].region("MPI_Finalize", 300, 400)
    return evaluate(loaded_db(b, tmp_path_factory.mktemp("two_late")), "delay_n2n", "mpi_wait_nxn")


def test_n_to_n_blames_only_the_latest_rank(two_late):
    # one delayer per collective, the rank that began last (3, work 240): ranks 0 and 1 lack 150
    # of its work (scale 150 / 150), rank 2 lacks 50 (scale 50 / 50); rank 2, late too, is not
    # charged for its 100 over ranks 0 and 1 (Scalasca's rule)
    assert per_rank(two_late, "delay_n2n") == {("prog/main/work", 3): pytest.approx(350 * NS)}
    assert sum(property_rows(two_late, "mpi_wait_nxn").values()) == pytest.approx(350 * NS)


@pytest.fixture(scope="module")
def no_waiting(tmp_path_factory):
    """Two ranks work alike, the receive is posted after the send completes, and both reach the
    barrier together: nobody waits."""
    b = TraceBuilder(2)
    with b[0].open("main", 0, 400):
        b[0].region("MPI_Init", 0, 10)
        b[0].region("work", 10, 100)
        b[0].mpi_send(100, 110, dst=1, tag=0, nbytes=8)
        b[0].region("work", 110, 200)
        b[0].collective("MPI_Barrier", 200, 210)
        b[0].region("MPI_Finalize", 300, 400)
    with b[1].open("main", 0, 400):
        b[1].region("MPI_Init", 0, 10)
        b[1].region("work", 10, 120)
        b[1].mpi_recv(120, 130, src=0, tag=0, nbytes=8)
        b[1].region("work", 130, 200)
        b[1].collective("MPI_Barrier", 200, 210)
        b[1].region("MPI_Finalize", 300, 400)
    return loaded_db(b, tmp_path_factory.mktemp("no_waiting"))


def test_no_waiting_no_delay(no_waiting):
    no_waiting = evaluate(no_waiting, *DELAY_METRICS, *WAIT_CLASSES) | {"totals": totals(no_waiting)}
    assert {m: property_rows(no_waiting, m) for m in DELAY_METRICS + WAIT_CLASSES} == {
        m: {} for m in DELAY_METRICS + WAIT_CLASSES
    }
    assert no_waiting["totals"]["delay"] == 0
    assert no_waiting["totals"]["waitstates_direct_vs_indirect"] == 0


@pytest.fixture(scope="module")
def two_threads(tmp_path_factory):
    """test_openmp's run: one rank, two threads; the master works serially (init 100..1000,
    finish 7000..9000) around one parallel region whose implicit barrier thread 0 enters at
    5000 and thread 1 at 3000."""
    from test_openmp import two_thread_run

    return analysed(two_thread_run(), tmp_path_factory.mktemp("two_threads"))


def test_idle_threads_are_charged_to_the_masters_serial_work(two_threads):
    # delay_ompidle = (threads - 1) x the master's serial time per call path, without the fork
    # interval 1000..1200 and the rest of the region up to the ThreadJoin at 6500: main 0..100
    # and 6500..7000, 9000..10000, init 900, finish 2000
    assert per_rank(two_threads, "delay_ompidle") == {
        ("prog/main", 0): pytest.approx(1600 * NS),
        ("prog/main/init", 0): pytest.approx(900 * NS),
        ("prog/main/finish", 0): pytest.approx(2000 * NS),
    }


def test_barrier_wait_is_charged_to_the_last_threads_work(two_threads):
    # thread 1 waits 5000 - 3000 = 2000 for the master. Since each thread's fork: master PAR
    # 200 (fork time) + 10 + 10 less its fork time 200 = 20, work 3780; thread 1 PAR 400 + 20
    # less 400 plus its late start 200 = 220, work 1580. Delay: work 2200 (PAR 20 < 220);
    # scale 2000 / 2200: all 2000 on the master's work
    par = "prog/main/!$omp parallel @a.c:1"
    assert per_rank(two_threads, "delay_ompbarrier") == {(f"{par}/work", 0): pytest.approx(2000 * NS)}
    assert two_threads["totals"]["delay_omp"] == pytest.approx(6500 * NS)
