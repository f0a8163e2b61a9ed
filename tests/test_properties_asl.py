"""ASL Appendix C properties over summaries, metaproperties, multi-condition properties,
master-slave roles and hardware-counter properties, against constructed timings.

Every expected value is computed by hand from the timings and counts the scenario
constructs (1 tick = 1 ns), never from an earlier output of cosydb.
"""

import pytest
from conftest import NS, ConstructedRuns, evaluated_rows, report
from cosydb.fixtures.generator import TraceBuilder

END = 10_000  # every rank's main spans 0..END: the rank basis is nranks * END

#: the runs of the tests that evaluate a few entries, loaded together (``runs``)
RUNS = ConstructedRuns()


def results(result, prop):
    """{where: row} of one property's listed rows over all processes (call path, or region for functions)."""
    return {r["callpath"] or r["region"]: r for r in evaluated_rows(result, prop) if r["rank"] is None}


def per_process(result, prop):
    return {(r["callpath"] or r["region"], r["rank"]): r for r in evaluated_rows(result, prop) if r["rank"] is not None}


@RUNS.run()
def communication_run():
    """4 ranks: a big Send/Recv pair, an imbalanced Allreduce (300, 600, 100, 200 ns) and a
    balanced Bcast (50 ns on every rank)."""
    b = TraceBuilder(4)
    allreduce = {0: 300, 1: 600, 2: 100, 3: 200}
    for r in range(4):
        with b[r].open("main", 0, END):
            if r == 0:
                b[r].mpi_send(1000, 1100, dst=1, tag=0, nbytes=100_000)
            if r == 1:
                b[r].mpi_recv(1000, 1200, src=0, tag=0, nbytes=100_000)
            b[r].collective("MPI_Allreduce", 5000, 5000 + allreduce[r])
            b[r].collective("MPI_Bcast", 7000, 7050, root=0)
    return b


def on_communication(runs, *names):
    """The rows of properties ``names`` on ``communication_run()``, calls under 250 ns frequent."""
    return runs.evaluate(communication_run, *names, params={"p_small_comm_s": 250e-9})


def test_dominating_comm_function_and_call(runs):
    communication = on_communication(runs, "dominating_comm_function", "dominating_comm_call")
    basis = 4 * END
    # Allreduce 300 + 600 + 100 + 200 = 1200 ns dominates Bcast (200), Recv (200), Send (100)
    assert list(results(communication, "dominating_comm_function")) == ["MPI_Allreduce"]
    row = results(communication, "dominating_comm_function")["MPI_Allreduce"]
    assert row["callpath"] is None and row["value"] == pytest.approx(1200 * NS)
    assert row["severity"] == pytest.approx(1200 / basis)
    assert list(results(communication, "dominating_comm_call")) == ["prog/main/MPI_Allreduce"]


def test_frequent_communication_and_big_messages(runs):
    communication = on_communication(runs, "frequent_communication", "big_messages")
    # per execution: Send 100, Recv 200, Bcast 50 ns < 250 ns; Allreduce 1200 / 4 = 300 ns is not
    frequent = results(communication, "frequent_communication")
    assert set(frequent) == {"prog/main/MPI_Send", "prog/main/MPI_Recv", "prog/main/MPI_Bcast"}
    assert frequent["prog/main/MPI_Bcast"]["value"] == pytest.approx(200 * NS)
    details = frequent["prog/main/MPI_Bcast"]["details"]  # the loss distribution over the processes
    assert details["executions"] == 4 and details["max"] == pytest.approx(50 * NS)
    assert len(details["by_location_id"]) == 4
    # 100 000 bytes per execution > 65 536 on both sides of the message; the collectives move none
    big = results(communication, "big_messages")
    assert set(big) == {"prog/main/MPI_Send", "prog/main/MPI_Recv"}
    assert big["prog/main/MPI_Recv"]["value"] == pytest.approx(200 * NS)
    assert big["prog/main/MPI_Send"]["details"]["average_bytes"] == 100_000


def test_uneven_mp_distribution(runs):
    communication = on_communication(runs, "uneven_mp_distribution")
    # Allreduce: population stddev of (300, 600, 100, 200) = sqrt(35000) = 187 > 0.1 * 1200 / 4;
    # Bcast is even, Send and Recv run on one process each (deviation 0)
    uneven = results(communication, "uneven_mp_distribution")
    assert set(uneven) == {"prog/main/MPI_Allreduce"}
    assert uneven["prog/main/MPI_Allreduce"]["details"]["deviation"] == pytest.approx(35000**0.5 * NS)


def test_frequent_comm_per_process_and_its_metaproperties(runs):
    communication = on_communication(
        runs,
        "frequent_comm_in_process",
        "frequent_comm_on_all_processes",
        "frequent_comm_some_processes",
    )
    in_process = per_process(communication, "frequent_comm_in_process")
    # Allreduce is frequent (< 250 ns per call) on ranks 2 and 3 only; severity per process: cost / END
    assert {k for k in in_process if k[0] == "MPI_Allreduce"} == {("MPI_Allreduce", 2), ("MPI_Allreduce", 3)}
    assert in_process[("MPI_Allreduce", 3)]["severity"] == pytest.approx(200 / END)
    assert set(results(communication, "frequent_comm_on_all_processes")) == {"MPI_Bcast"}
    on_all = results(communication, "frequent_comm_on_all_processes")["MPI_Bcast"]
    assert on_all["value"] == pytest.approx(200 * NS) and on_all["severity"] == pytest.approx(50 / END)
    some = results(communication, "frequent_comm_some_processes")
    assert set(some) == {"MPI_Allreduce", "MPI_Send", "MPI_Recv"}
    assert some["MPI_Allreduce"]["severity"] == pytest.approx(200 / END)  # max over ranks 2, 3
    assert some["MPI_Allreduce"]["value"] == pytest.approx(300 * NS)  # summed over ranks 2, 3


BARRIER = ("load_imbalance_at_barrier", "mpi_barrier_wait")


#: (enters, leaves) of the ranks at the barrier of ``barrier_run``
BARRIERS = {
    "imbalanced": ([100, 300, 700], [800, 800, 800]),
    "without_idle_time": ([100, 100, 100], [200, 300, 400]),
    "balanced": ([100, 100, 100], [200, 200, 200]),
}


@RUNS.run(("without_idle_time",), ("balanced",))  # "imbalanced": the whole report, on a database of its own
def barrier_run(key):
    """Every rank in one MPI_Barrier, entered and left at BARRIERS[key]."""
    enters, leaves = BARRIERS[key]
    b = TraceBuilder(len(enters))
    for r, (enter, leave) in enumerate(zip(enters, leaves)):
        with b[r].open("main", 0, 1000):
            b[r].collective("MPI_Barrier", enter, leave)
    return b


def test_load_imbalance_at_barrier_takes_the_max_over_its_conditions(tmp_path):
    result = report(barrier_run("imbalanced"), tmp_path)  # the whole catalog, end to end
    # Scalasca barrier wait: latest B = 700 -> 600 + 400 + 0
    assert results(result, "mpi_barrier_wait")["prog/main/MPI_Barrier"]["value"] == pytest.approx(1000 * NS)
    row = results(result, "load_imbalance_at_barrier")["prog/main/MPI_Barrier"]
    # COND1: MaxWait = 700 - 100, severity 600 / (3000 / 3); COND2: IdleTime 1000 / 3000
    assert row["condition_id"] == "COND1,COND2"
    assert row["severity"] == pytest.approx(0.6) and row["value"] == pytest.approx(600 * NS)


def test_load_imbalance_at_barrier_without_idle_time(runs):
    # all arrive at 100, they leave at different times: no wait, but Incl differs by 200
    result = runs.evaluate(barrier_run, *BARRIER, args=("without_idle_time",))
    row = results(result, "load_imbalance_at_barrier")["prog/main/MPI_Barrier"]
    assert row["condition_id"] == "COND1" and row["severity"] == pytest.approx(200 / 1000)
    assert results(result, "mpi_barrier_wait") == {}


def test_balanced_barrier_is_no_problem(runs):
    result = runs.evaluate(barrier_run, *BARRIER, args=("balanced",))
    assert results(result, "load_imbalance_at_barrier") == {} and results(result, "mpi_barrier_wait") == {}


@RUNS.run((False,), (True,))
def master_slave_run(slave_to_slave=False):
    """Master 0 sends a task to each slave (at 100, 120, 140), then receives the results in
    order; slave s waits in MPI_Recv from 50 for its task and returns its result at 1000 * s.
    slave_to_slave: slave 1 also sends a message to slave 2 at the end."""
    b = TraceBuilder(4)
    with b[0].open("main", 0, END):
        for s in (1, 2, 3):
            b[0].mpi_send(100 + 20 * (s - 1), 110 + 20 * (s - 1), dst=s, tag=0, nbytes=8)
        b[0].mpi_recv(500, 1010, src=1, tag=1, nbytes=8)  # idle min(1000, 1010) - 500 = 500
        b[0].mpi_recv(1020, 2010, src=2, tag=1, nbytes=8)  # idle 2000 - 1020 = 980
        b[0].mpi_recv(2020, 3010, src=3, tag=1, nbytes=8)  # idle 3000 - 2020 = 980
    for s in (1, 2, 3):
        with b[s].open("main", 0, END):
            b[s].mpi_recv(50, 200, src=0, tag=0, nbytes=8)  # idle 100 + 20 (s - 1) - 50
            b[s].region("work", 200, 1000 * s)
            b[s].mpi_send(1000 * s, 1000 * s + 10, dst=0, tag=1, nbytes=8)
            if slave_to_slave and s == 1:
                b[s].mpi_send(END - 100, END - 90, dst=2, tag=5, nbytes=8)
            if slave_to_slave and s == 2:
                b[s].mpi_recv(END - 100, END - 80, src=1, tag=5, nbytes=8)
    return b


MASTER_SLAVE = ("slow_slaves", "overloaded_master")


def on_master_slave(runs, *names, slave_to_slave=False, **options):
    """``runs.evaluate`` on ``master_slave_run(slave_to_slave)``."""
    return runs.evaluate(master_slave_run, *names, args=(slave_to_slave,), **options)


def test_slow_slaves_and_overloaded_master(runs):
    result = on_master_slave(runs, *MASTER_SLAVE)
    slow = results(result, "slow_slaves")
    assert set(slow) == {"prog/main/MPI_Recv"}
    assert slow["prog/main/MPI_Recv"]["value"] == pytest.approx(2460 * NS)
    assert set(per_process(result, "slow_slaves")) == {("prog/main/MPI_Recv", 0)}
    # the slaves' task receives wait 50 + 70 + 90 = 210 ns, per slave 210 / (4 - 1)
    overloaded = results(result, "overloaded_master")
    assert set(overloaded) == {"prog/main/MPI_Recv"}
    assert overloaded["prog/main/MPI_Recv"]["value"] == pytest.approx(70 * NS)
    assert overloaded["prog/main/MPI_Recv"]["severity"] == pytest.approx(70 / (4 * END))


def test_master_slave_needs_every_message_to_involve_the_master(runs):
    result = on_master_slave(runs, *MASTER_SLAVE, slave_to_slave=True)
    assert results(result, "slow_slaves") == {} and results(result, "overloaded_master") == {}
    # as the master, rank 1 is no master either (rank 0 exchanges with ranks 2 and 3)
    assert results(on_master_slave(runs, "slow_slaves", params={"p_master_rank": 1}), "slow_slaves") == {}


def test_idle_time_properties_of_the_asl_catalog(runs):
    result = on_master_slave(runs, "idle_late_sender", "idle_late_receiver")
    # LateSender(FuncCall r): the idle time of receive calls (master 2460 + slaves 210)
    assert results(result, "idle_late_sender")["prog/main/MPI_Recv"]["value"] == pytest.approx(2670 * NS)
    assert results(result, "idle_late_receiver") == {}


COUNTERS = ("PAPI_L1_DCM", "PAPI_LD_INS", "PAPI_SR_INS")
#: The L1 data cache properties of the instances of a call path.
PER_INSTANCE = (
    "l1d_cache_misses_per_instance",
    "l1d_cache_misses_in_all_instances_in_process",
    "l1d_cache_misses_in_some_not_all_instances",
)


@RUNS.run()
def cache_run():
    """Two ranks; main does 1000 loads itself and calls kernel twice (1000 loads + stores each).
    L1 data misses of the kernel instances: rank 0 300 and 100, rank 1 400 and 400."""
    b = TraceBuilder(2, counters=COUNTERS)
    misses = {0: (300, 100), 1: (400, 400)}
    for r in (0, 1):
        b[r].enter(0, "main")
        b[r].measure(0)
        for i, m in enumerate(misses[r]):
            b[r].region(
                "kernel",
                100 + 400 * i,
                400 + 400 * i,
                counters={"PAPI_L1_DCM": m, "PAPI_LD_INS": 600, "PAPI_SR_INS": 400},
            )
        b[r].measure(END, PAPI_LD_INS=1000)
        b[r].leave(END)
    return b


def test_cache_cost_relative_to_the_loads_and_stores_of_the_run(runs):
    result = runs.evaluate(cache_run, "l1_data_cache_misses", "l1_inst_cache_misses", "l2_cache_misses_per_instance")
    rows = results(result, "l1_data_cache_misses")
    # 1200 misses in kernel (and so in main and the program); loads + stores 2 * 3000
    assert set(rows) == {"prog", "prog/main", "prog/main/kernel"}
    assert rows["prog/main/kernel"]["value"] == 1200 and rows["prog/main/kernel"]["severity"] == pytest.approx(0.2)
    status = {r["property"]: r["status"] for r in result["results"]}
    assert status["l1_inst_cache_misses"] == "not evaluable: no PAPI_L1_ICM metric"
    assert status["l2_cache_misses_per_instance"] == "not evaluable: no PAPI_L2_TCM metric"


def test_cache_misses_per_instance_and_over_instances(runs):
    result = runs.evaluate(cache_run, *PER_INSTANCE, "l1d_cache_misses_in_all_instances_in_all_processes")
    worst = per_process(result, "l1d_cache_misses_per_instance")
    # most severe kernel instance: rank 0 300 / 1000, rank 1 400 / 1000; main: 400 / 3000, 800 / 3000
    assert (
        worst[("prog/main/kernel", 0)]["severity"] == pytest.approx(0.3)
        and worst[("prog/main/kernel", 0)]["value"] == 300
    )
    assert worst[("prog/main", 1)]["severity"] == pytest.approx(800 / 3000)
    # instances above 0.25: rank 0 kernel one of two, rank 1 kernel both, rank 1 main its only one
    assert set(per_process(result, "l1d_cache_misses_in_all_instances_in_process")) == {
        ("prog/main/kernel", 1),
        ("prog/main", 1),
    }
    some = per_process(result, "l1d_cache_misses_in_some_not_all_instances")
    assert set(some) == {("prog/main/kernel", 0)} and some[("prog/main/kernel", 0)]["severity"] == pytest.approx(0.3)
    assert results(result, "l1d_cache_misses_in_all_instances_in_all_processes") == {}
    # with instances counted above 0.05 every kernel instance holds, on both processes
    lenient = runs.evaluate(
        cache_run, "l1d_cache_misses_in_all_instances_in_all_processes", params={"p_instance_severity": 0.05}
    )
    everywhere = results(lenient, "l1d_cache_misses_in_all_instances_in_all_processes")
    assert set(everywhere) == {"prog/main/kernel", "prog/main"}  # main: 400 / 3000 and 800 / 3000
    assert everywhere["prog/main/kernel"]["severity"] == pytest.approx(0.4)


@RUNS.run()
def no_cache_misses_run():
    b = TraceBuilder(1, counters=COUNTERS)
    b[0].enter(0, "main")
    b[0].measure(0)
    b[0].region("kernel", 100, 400, counters={"PAPI_L1_DCM": 0, "PAPI_LD_INS": 600, "PAPI_SR_INS": 400})
    b[0].measure(END)
    b[0].leave(END)
    return b


def test_no_cache_misses_no_cache_problem(runs):
    result = runs.evaluate(no_cache_misses_run, "l1_data_cache_misses", *PER_INSTANCE)
    for prop in ("l1_data_cache_misses", *PER_INSTANCE):
        assert results(result, prop) == {} and per_process(result, prop) == {}, prop
        assert {r["status"] for r in result["results"] if r["property"] == prop} <= {"evaluated"}
