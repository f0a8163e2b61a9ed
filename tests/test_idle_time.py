"""IdleTime of the ASL MPISummary (Appendix C) as the pattern idle_time.

It sums, over the call path's subtree, the catalog's wait states under mpi_synchronization
and mpi_communication that wait for a partner (Scalasca's late sender, late receiver and
collective waits; a plug-in's too); a profile holds none (IdleTime not measured: NULL in
the ASL summaries). The ASL properties over IdleTime read the pattern.

Every expected value is computed by hand from the timings the scenario constructs
(1 tick = 1 ns), never from an earlier output of cosydb.
"""

import csv

import pytest
from conftest import SCALASCA_TRACES, load_built, plug_in_wait, real_trace
from cosydb.fixtures.generator import TraceBuilder
from cosydb.fixtures.profile_builder import ProfileBuilder

from cosydb import catalog, database, evaluator
from cosydb.loading import load

NS = 1e-9
END = 2000


def wait_run():
    """2 ranks. In solve, rank 1 waits in MPI_Recv 100..600 for rank 0's MPI_Send at 500
    (late sender: min(500, 600) - 100 = 400) and rank 0's big MPI_Send 600..900 waits for
    rank 1's MPI_Recv posted at 800 (late receiver: 800 - 600 = 200). Rank 0 enters the
    barrier at 1200, rank 1 at 1400 (barrier wait of rank 0: min(1400, 1500) - 1200 = 200).
    Then rank 1 waits in MPI_Wait from 1530 for an MPI_Isend at 1700 (min(1700, 1800) - 1530
    = 170). Every other wait is <= 0: rank 1's second MPI_Recv min(600, 910) - 800, the first
    message's late receiver 100 - 500, the Isend's completing Wait 1510 - 1720."""
    b = TraceBuilder(2)
    with b[0].open("main", 0, END):
        with b[0].open("solve", 0, 1000):
            b[0].region("compute", 10, 490)
            b[0].mpi_send(500, 520, dst=1, tag=0, nbytes=8)
            b[0].mpi_send(600, 900, dst=1, tag=1, nbytes=1 << 20)
        b[0].collective("MPI_Barrier", 1200, 1500)
        b[0].mpi_isend(1700, 1710, dst=1, tag=2, nbytes=8, request=3)
        b[0].mpi_wait(1720, 1730, requests=[3], call="MPI_Wait")
    with b[1].open("main", 0, END):
        with b[1].open("solve", 0, 1000):
            b[1].mpi_recv(100, 600, src=0, tag=0, nbytes=8)
            b[1].region("compute", 610, 790)
            b[1].mpi_recv(800, 910, src=0, tag=1, nbytes=1 << 20)
        b[1].collective("MPI_Barrier", 1400, 1500)
        b[1].mpi_irecv(1510, 1520, src=0, tag=2, nbytes=8, request=7)
        b[1].mpi_wait(1530, 1800, requests=[7], call="MPI_Wait")
    return b


def idle_times(con, evaluation=None, plug_ins=()) -> dict:
    """The rows of the pattern idle_time: (call path, rank) -> idle_s."""
    evaluation = evaluation or evaluator.evaluate(con, catalog.load(plug_ins), 1, {}, ["idle_time"])
    return {
        (r["path"], r["rank"]): r["idle_s"]
        for r in evaluation.query("""
            SELECT c.path, l.rank, i.idle_s FROM {{ ref('idle_time') }} i
            JOIN callpaths c ON c.experiment_id = 1 AND c.callpath_id = i.callpath_id
            JOIN locations l ON l.experiment_id = 1 AND l.location_id = i.location_id""")
        .to_arrow_table()
        .to_pylist()
    }


#: wait_run's IdleTime in ns where it is not 0
WAIT_RUN_IDLE = {
    # rank 0: the late receiver at its second MPI_Send, the barrier wait
    ("prog/main/solve/MPI_Send", 0): 200,
    ("prog/main/solve", 0): 200,
    ("prog/main/MPI_Barrier", 0): 200,
    ("prog/main", 0): 400,
    ("prog", 0): 400,
    # rank 1: the late sender at its first MPI_Recv and at the MPI_Wait completing the Irecv
    ("prog/main/solve/MPI_Recv", 1): 400,
    ("prog/main/solve", 1): 400,
    ("prog/main/MPI_Wait", 1): 170,
    ("prog/main", 1): 570,
    ("prog", 1): 570,
}


def test_idle_time_per_call_path_and_rank(tmp_path):
    got = idle_times(load_built(wait_run(), tmp_path))
    assert got == {key: pytest.approx(ns * NS) for key, ns in WAIT_RUN_IDLE.items()}


@pytest.mark.parametrize("wait_state, waited", [("true", 30), ("{completion: true}", 0)])
def test_a_plug_in_wait_state_in_communication_is_idle_time(tmp_path, wait_state, waited):
    """A plug-in wait state under mpi_point2point, 30 ns at rank 1's compute: IdleTime there
    and in its callers; as a completion, not."""
    con = load_built(wait_run(), tmp_path)
    plug_ins = [plug_in_wait(tmp_path, wait_state, "mpi_point2point", "prog/main/solve/compute", rank=1, ns=30)]
    expected = dict(WAIT_RUN_IDLE)
    for path in ("prog/main/solve/compute", "prog/main/solve", "prog/main", "prog"):
        expected[(path, 1)] = expected.get((path, 1), 0) + waited
    got = idle_times(con, plug_ins=plug_ins)
    assert got == {key: pytest.approx(ns * NS) for key, ns in expected.items() if ns}


def test_the_idle_time_entries_read_the_pattern(tmp_path):
    con = load_built(wait_run(), tmp_path)
    names = ["idle_time", "idle_late_sender", "idle_late_receiver", "load_imbalance_at_barrier"]
    evaluation = evaluator.evaluate(con, catalog.load(), 1, {}, names)
    assert [evaluation.status[n] for n in names] == ["evaluated"] * 4

    def per_process(prop, column="value"):
        return {
            (r["path"], r["rank"]): r[column]
            for r in evaluation.query(f"""
            SELECT c.path, l.rank, p.* FROM {{{{ ref('{prop}') }}}} p JOIN callpaths c ON c.experiment_id = 1
            AND c.callpath_id = p.callpath_id JOIN locations l ON l.experiment_id = 1 AND l.location_id = p.location_id
            """)
            .to_arrow_table()
            .to_pylist()
        }

    assert idle_times(con, evaluation) == {key: pytest.approx(ns * NS) for key, ns in WAIT_RUN_IDLE.items()}
    # ASL LateSender(FuncCall r) at receive calls (not MPI_Wait), LateReceiver at blocking sends
    assert per_process("idle_late_sender") == {("prog/main/solve/MPI_Recv", 1): pytest.approx(400 * NS)}
    assert per_process("idle_late_receiver") == {("prog/main/solve/MPI_Send", 0): pytest.approx(200 * NS)}
    # LoadImbalanceAtBarrier: COND1 MaxWait = Incl 300 - 100, severity 200 / (2 * END / 2);
    # COND2 IdleTime 200, severity 200 / (2 * END)
    [barrier] = evaluation.rows("load_imbalance_at_barrier").to_pylist()
    assert barrier["condition_id"] == "COND1,COND2" and barrier["value"] == pytest.approx(200 * NS)
    assert barrier["severity"] == pytest.approx(200 / END)


def test_a_profile_does_not_measure_idle_time(tmp_path):
    p = ProfileBuilder(2)
    for r in (0, 1):
        p.add("prog", r, visits=1)
        p.add("prog/main", r, visits=1, time=1.0)
    p.add("prog/main/MPI_Recv", 1, visits=10, time=0.75, bytes_received=80)
    p.add("prog/main/MPI_Barrier", 0, visits=1, time=0.5)
    p.add("prog/main/MPI_Barrier", 1, visits=1, time=0.1)
    load(p.write(tmp_path / "run" / "profile.cubex"), tmp_path / "p.cosydb")
    con = database.connect(tmp_path / "p.cosydb")
    # no wait state is evaluable: idle_time has no rows, and LoadImbalanceAtBarrier has COND1
    # only (max - min Incl = 0.5 - 0.1)
    evaluation = evaluator.evaluate(con, catalog.load(), 1, {}, ["load_imbalance_at_barrier", "idle_time"])
    assert idle_times(con, evaluation) == {}
    [barrier] = evaluation.rows("load_imbalance_at_barrier").to_pylist()
    assert barrier["condition_id"] == "COND1" and barrier["value"] == pytest.approx(0.4)


IDLE_METRICS = (
    "mpi_latesender",
    "mpi_latereceiver",
    "mpi_barrier_wait",
    "mpi_wait_nxn",
    "mpi_earlyreduce",
    "mpi_earlyscan",
    "mpi_latebroadcast",
)


@pytest.mark.parametrize("trace", SCALASCA_TRACES)
def test_idle_time_of_the_run_is_scalascas_wait_time(real_db, trace):
    con = database.connect(real_db(trace))
    try:
        # the whole run's IdleTime is the total of those Scalasca 2.6 metrics in its own analysis
        folder = real_trace(trace)
        with open(next((folder / "scalasca").glob("*.totals.csv"))) as f:
            totals = {r["metric"]: float(r["total"]) for r in csv.DictReader(f)}
        evaluation = evaluator.evaluate(con, catalog.load(), 1, {}, ["idle_time"])
        (idle,) = evaluation.query("""
            SELECT sum(i.idle_s) FROM {{ ref('idle_time') }} i
            JOIN callpaths c ON c.experiment_id = 1 AND c.callpath_id = i.callpath_id
            WHERE c.parent_id IS NULL""").fetchone()
        assert idle == pytest.approx(sum(totals[m] for m in IDLE_METRICS), rel=1e-5)
    finally:
        con.close()
