"""Point-to-point properties (CRE patterns, ASL, Scalasca) against constructed timings.

Every expected value below is computed by hand from the timings the scenario
constructs (1 tick = 1 ns), never from an earlier output of cosydb.
"""

import pytest
from conftest import NS, ConstructedRuns, aggregate_places, evaluate, property_rows, report
from cosydb.fixtures.generator import TraceBuilder

#: The CRE wrong-order patterns, Scalasca's Late Sender / Wrong Order split and the cost family.
WRONG_ORDER = ("wrong_order_ls", "wrong_order_lr", "messages_in_wrong_order")
LSWO = ("mpi_lswo_same", "mpi_lswo_different")
COSTS = ("io_cost", "total_cost", "comm_cost", "sync_cost")

#: the runs of the tests that evaluate a few entries, loaded together (``runs``)
RUNS = ConstructedRuns()


@RUNS.run()
def late_sender_run():
    """Rank 1 enters MPI_Recv at 100; rank 0 computes and enters MPI_Send at 500."""
    b = TraceBuilder(2)
    with b[0].open("main", 0, 1000):
        b[0].region("compute", 10, 490)
        b[0].mpi_send(500, 520, dst=1, tag=0, nbytes=8)
    with b[1].open("main", 0, 1000):
        b[1].mpi_recv(100, 600, src=0, tag=0, nbytes=8)
    return b


def test_late_sender_cre_and_scalasca(runs):
    result = runs.evaluate(
        late_sender_run,
        "late_sender",
        "mpi_latesender",
        "idle_late_sender",
        "late_receiver",
        "wrong_order_ls",
        "mpi_latereceiver",
    )
    # CRE: E(send) - E(recv) = 500 - 100; Scalasca: min(E(S)=500, L(R)=600) - E(R)=100
    assert property_rows(result, "late_sender") == {"prog/main/MPI_Recv": pytest.approx(400 * NS)}
    assert property_rows(result, "mpi_latesender") == {"prog/main/MPI_Recv": pytest.approx(400 * NS)}
    assert property_rows(result, "idle_late_sender") == {"prog/main/MPI_Recv": pytest.approx(400 * NS)}
    assert property_rows(result, "late_sender", all_processes=False) == {
        ("prog/main/MPI_Recv", 1): pytest.approx(400 * NS)
    }
    # severity relative to the whole run summed over both ranks: the program spans 0..1000 on each
    row = next(r for r in result["results"] if r["property"] == "late_sender" and r["rank"] is None)
    assert row["severity"] == pytest.approx(400 / 2000)
    assert row["details"]["max_location_id"] == 1
    # nothing for the patterns it does not match
    assert property_rows(result, "late_receiver") == {} and property_rows(result, "wrong_order_ls") == {}
    assert property_rows(result, "mpi_latereceiver") == {}


@RUNS.run()
def late_receiver_run():
    b = TraceBuilder(2)
    with b[0].open("main", 0, 1000):
        b[0].mpi_send(100, 700, dst=1, tag=0, nbytes=1 << 20)  # blocks until the receive is posted
    with b[1].open("main", 0, 1000):
        b[1].region("compute", 10, 490)
        b[1].mpi_recv(500, 710, src=0, tag=0, nbytes=1 << 20)
    return b


def test_late_receiver_cre_and_scalasca(runs):
    result = runs.evaluate(
        late_receiver_run,
        "late_receiver",
        "mpi_latereceiver",
        "idle_late_receiver",
        "late_sender",
        "mpi_latesender",
    )
    # CRE: E(recv) - E(send) = 500 - 100 while the send is still active (L(send) = 700 > 500)
    assert property_rows(result, "late_receiver") == {"prog/main/MPI_Send": pytest.approx(400 * NS)}
    assert {r["confidence"] for r in result["results"] if r["property"] == "late_receiver"} == {0.5}
    # Scalasca: E(Rreq) - E(Scmp) = 500 - 100, since L(Scmp) = 700 > E(Rreq)
    assert property_rows(result, "mpi_latereceiver") == {"prog/main/MPI_Send": pytest.approx(400 * NS)}
    assert property_rows(result, "idle_late_receiver") == {"prog/main/MPI_Send": pytest.approx(400 * NS)}
    assert property_rows(result, "late_sender") == {} and property_rows(result, "mpi_latesender") == {}


@RUNS.run()
def waitall_run():
    b = TraceBuilder(4)
    with b[0].open("main", 0, 2000):
        for src in (1, 2, 3):
            b[0].mpi_irecv(10 * src, 10 * src + 5, src=src, tag=0, nbytes=8, request=src)
        b[0].mpi_wait(100, 900, requests=[1, 2, 3], call="MPI_Waitall")
        b[0].mpi_irecv(1000, 1005, src=1, tag=1, nbytes=8, request=9)
        b[0].mpi_wait(1010, 1500, requests=[9], call="MPI_Test")  # completes in MPI_Test: not counted
    for src, send_at in ((1, 300), (2, 500), (3, 800)):
        with b[src].open("main", 0, 2000):
            b[src].mpi_send(send_at, send_at + 20, dst=0, tag=0, nbytes=8)
            if src == 1:
                b[src].mpi_send(1400, 1420, dst=0, tag=1, nbytes=8)
    return b


def test_waitall_counts_the_largest_wait_once_and_test_is_excluded(runs):
    result = runs.evaluate(waitall_run, "mpi_latesender", "late_sender", "idle_late_sender")
    # idle per message 200, 400, 700; the Waitall counts only the largest, once
    assert property_rows(result, "mpi_latesender") == {"prog/main/MPI_Waitall": pytest.approx(700 * NS)}
    # the CRE pattern and ASL's LateSender(FuncCall r) ask for MPI_Recv: no match
    assert property_rows(result, "late_sender") == {} and property_rows(result, "idle_late_sender") == {}


@RUNS.run()
def sendrecv_ring_run():
    # rank r calls MPI_Sendrecv at E_r, sending to r + 1 and receiving from r - 1 (mod 4)
    enters, leaves = [100, 200, 300, 400], [450, 250, 350, 450]
    b = TraceBuilder(4)
    for r in range(4):
        with b[r].open("main", 0, 1000):
            b[r].mpi_sendrecv(enters[r], leaves[r], dst=(r + 1) % 4, src=(r - 1) % 4, tag=0, nbytes=8)
    return b


def test_sendrecv_ring_counts_both_halves(runs):
    result = runs.evaluate(sendrecv_ring_run, "mpi_latesender", "mpi_latereceiver")
    # receive half: rank 0 waits for rank 3's call, min(E = 400, L = 450) - 100; the others' senders came first
    assert property_rows(result, "mpi_latesender", all_processes=False) == {
        ("prog/main/MPI_Sendrecv", 0): pytest.approx(300 * NS)
    }
    # send half: rank 0's call lasts (L = 450) past rank 1's Enter (200), but Scalasca 2.6 counts no
    # Late Receiver at an MPI_Sendrecv (a non-blocking send-receive to it; tests/test_late_receiver_rules.py)
    assert property_rows(result, "mpi_latereceiver", all_processes=False) == {}


@RUNS.run()
def wrong_order_run():
    b = TraceBuilder(2)
    with b[0].open("main", 0, 1000):
        b[0].mpi_send(100, 110, dst=1, tag=1, nbytes=8)  # older message, received last
        b[0].mpi_send(200, 210, dst=1, tag=2, nbytes=8)
    with b[1].open("main", 0, 1000):
        b[1].mpi_recv(50, 250, src=0, tag=2, nbytes=8)  # waits 150 for the newer message
        b[1].mpi_recv(300, 400, src=0, tag=1, nbytes=8)
    return b


def test_wrong_order_patterns(runs):
    result = runs.evaluate(wrong_order_run, *WRONG_ORDER, "late_sender", "mpi_latesender_wo", *LSWO)
    assert property_rows(result, "late_sender") == {"prog/main/MPI_Recv": pytest.approx(150 * NS)}
    # at the receive of tag 2 (t=250) the tag-1 message (sent at 100 < 200) is still queued
    assert property_rows(result, "wrong_order_ls") == {"prog/main/MPI_Recv": pytest.approx(150 * NS)}
    # cost = send call (200..210) + receive call (50..250)
    assert property_rows(result, "messages_in_wrong_order") == {"prog/main/MPI_Recv": pytest.approx(210 * NS)}
    assert property_rows(result, "wrong_order_lr") == {}
    # Scalasca: the tag-1 receive's send (100) predates the remembered instance's send (200)
    assert property_rows(result, "mpi_latesender_wo") == {"prog/main/MPI_Recv": pytest.approx(150 * NS)}
    assert property_rows(result, "mpi_lswo_same") == {"prog/main/MPI_Recv": pytest.approx(150 * NS)}
    assert property_rows(result, "mpi_lswo_different") == {}


@RUNS.run()
def wrong_order_late_receiver_run():
    b = TraceBuilder(2)
    with b[0].open("main", 0, 1000):
        b[0].mpi_send(100, 110, dst=1, tag=1, nbytes=8)  # older message, received last
        b[0].mpi_send(200, 700, dst=1, tag=2, nbytes=1 << 20)  # blocks until the receive is posted
    with b[1].open("main", 0, 1000):
        b[1].mpi_recv(500, 710, src=0, tag=2, nbytes=1 << 20)
        b[1].mpi_recv(800, 810, src=0, tag=1, nbytes=8)
    return b


def test_wrong_order_late_receiver(runs):
    result = runs.evaluate(wrong_order_late_receiver_run, *WRONG_ORDER, "late_receiver")
    # E(recv) 500 - E(send) 200 while the send is still active (its Leave 700 > 500)
    assert property_rows(result, "late_receiver") == {"prog/main/MPI_Send": pytest.approx(300 * NS)}
    # at that receive (t = 710) the tag-1 message, sent at 100 < 200, is still queued
    assert property_rows(result, "wrong_order_lr") == {"prog/main/MPI_Send": pytest.approx(300 * NS)}
    assert property_rows(result, "wrong_order_ls") == {}
    # cost = send call (200..700) + receive call (500..710)
    assert property_rows(result, "messages_in_wrong_order") == {"prog/main/MPI_Recv": pytest.approx(710 * NS)}


@RUNS.run()
def wrong_order_waitall_run():
    b = TraceBuilder(3)
    with b[0].open("main", 0, 2000):
        b[0].mpi_irecv(10, 20, src=1, tag=0, nbytes=8, request=1)
        b[0].mpi_irecv(30, 40, src=2, tag=0, nbytes=8, request=2)
        b[0].mpi_wait(100, 900, requests=[1, 2], call="MPI_Waitall")
        b[0].mpi_recv(1000, 1010, src=1, tag=1, nbytes=8)
    with b[1].open("main", 0, 2000):
        b[1].mpi_send(60, 70, dst=0, tag=1, nbytes=8)  # sent first, received last
        b[1].mpi_send(500, 510, dst=0, tag=0, nbytes=8)  # the late one: idle min(500, 900) - 100
    with b[2].open("main", 0, 2000):
        b[2].mpi_send(50, 55, dst=0, tag=0, nbytes=8)  # completed in the same Waitall, after it
    return b


def test_wrong_order_of_a_waitall_is_remembered_from_its_leave(runs):
    result = runs.evaluate(wrong_order_waitall_run, "mpi_latesender", "mpi_latesender_wo", *LSWO)
    assert property_rows(result, "mpi_latesender") == {"prog/main/MPI_Waitall": pytest.approx(400 * NS)}
    # the Waitall's instance enters the buffer at its Leave, so rank 2's receive inside the
    # same call (send 50 < 500) does not reveal it; the later receive from rank 1 (60 < 500) does
    assert property_rows(result, "mpi_latesender_wo") == {"prog/main/MPI_Waitall": pytest.approx(400 * NS)}
    assert property_rows(result, "mpi_lswo_same") == {"prog/main/MPI_Waitall": pytest.approx(400 * NS)}
    assert property_rows(result, "mpi_lswo_different") == {}


#: (late, early_send) batches of ``remembered_instance_run``
REMEMBERED = {99: [(99, 10)], 100: [(100, 10)], "made_room": [(50, 300), (60, 100)]}


@RUNS.run(*((key,) for key in REMEMBERED))
def remembered_instance_run(key):
    """Rank 0 waits 100 ns for rank 1 (send at 200) inside region "first", then, per batch
    (late, early_send), receives `late` late messages from rank 2 (each waits 500 ns; sent
    after 1000) and one early message from rank 3 (tag = batch number, sent at early_send),
    for the batches REMEMBERED[key]."""
    batches = REMEMBERED[key]
    b = TraceBuilder(4)
    end = 10**7
    for rank in range(4):
        b[rank].enter(0, "main")
    b[1].mpi_send(200, 205, dst=0, tag=0, nbytes=8)
    for tag, (_, early_send) in sorted(enumerate(batches), key=lambda batch: batch[1][1]):
        b[3].mpi_send(early_send, early_send + 5, dst=0, tag=tag, nbytes=8)
    with b[0].open("first", 50, 300):
        b[0].mpi_recv(100, 210, src=1, tag=0, nbytes=8)
    t = 1000
    for tag, (late, _) in enumerate(batches):
        for _ in range(late):
            b[0].mpi_recv(t, t + 510, src=2, tag=0, nbytes=8)
            b[2].mpi_send(t + 500, t + 505, dst=0, tag=0, nbytes=8)
            t += 1000
        b[0].mpi_recv(t, t + 10, src=3, tag=tag, nbytes=8)
        t += 1000
    for rank in range(4):
        b[rank].leave(end)
    return b


@pytest.mark.parametrize("late, remembered", [(99, True), (100, False)])
def test_wrong_order_remembers_the_last_100_late_sender_instances(runs, late, remembered):
    # after the instance in "first", `late` more instances fill the buffer; then a message
    # sent at 10 (before every buffered send) is received and reveals all that are left
    result = runs.evaluate(remembered_instance_run, "mpi_latesender_wo", *LSWO, args=(late,))
    expected = {"prog/main/MPI_Recv": pytest.approx(late * 500 * NS)}
    if remembered:
        expected["prog/main/first/MPI_Recv"] = pytest.approx(100 * NS)
    assert property_rows(result, "mpi_latesender_wo") == expected
    # Scalasca 2.6 files every instance one receive reveals under the first one it reveals
    # (ROLE_RECV_LSWO is set once per receive): all at "first" while it is remembered
    different = {"prog/main/first/MPI_Recv": pytest.approx((100 + late * 500) * NS)} if remembered else expected
    assert property_rows(result, "mpi_lswo_different") == different and property_rows(result, "mpi_lswo_same") == {}


def test_instances_removed_from_the_buffer_make_room(runs):
    # 50 instances, then a message sent at 300 reveals those 50 (sent after 1000) but not
    # the one in "first" (sent at 200); 60 more instances: 110 pushed after "first", yet the
    # buffer never held more than 61, so a message sent at 100 still reveals it
    result = runs.evaluate(remembered_instance_run, "mpi_latesender_wo", args=("made_room",))
    assert property_rows(result, "mpi_latesender_wo") == {
        "prog/main/first/MPI_Recv": pytest.approx(100 * NS),
        "prog/main/MPI_Recv": pytest.approx(110 * 500 * NS),
    }


def test_focus_region_and_rank_basis(tmp_path):
    b = TraceBuilder(2)
    with b[0].open("main", 0, 2000):
        with b[0].open("solve", 0, 1000):
            b[0].mpi_send(500, 520, dst=1, tag=0, nbytes=8)
        b[0].mpi_send(1500, 1520, dst=1, tag=0, nbytes=8)
    with b[1].open("main", 0, 2000):
        with b[1].open("solve", 0, 1000):
            b[1].mpi_recv(100, 600, src=0, tag=0, nbytes=8)
        b[1].mpi_recv(1200, 1600, src=0, tag=0, nbytes=8)
    result = report(b, tmp_path, region="solve", rank_basis="solve")
    # only the receive inside solve (wait 400); severity against solve: 1000 ticks on each of 2 ranks
    assert property_rows(result, "late_sender") == {"prog/main/solve/MPI_Recv": pytest.approx(400 * NS)}
    row = next(r for r in result["results"] if r["property"] == "late_sender" and r["rank"] is None)
    assert row["severity"] == pytest.approx(400 / 2000)
    unfocused = evaluate(tmp_path / "run.cosydb", "late_sender")
    assert property_rows(unfocused, "late_sender") == {
        "prog/main/solve/MPI_Recv": pytest.approx(400 * NS),
        "prog/main/MPI_Recv": pytest.approx(300 * NS),
    }


def test_cost_family(tmp_path):
    b = TraceBuilder(2)
    with b[0].open("main", 0, 1000):
        b[0].mpi_send(100, 150, dst=1, tag=0, nbytes=8)
        b[0].collective("MPI_Barrier", 200, 300)
    with b[1].open("main", 0, 1000):
        b[1].mpi_recv(100, 180, src=0, tag=0, nbytes=8)
        b[1].collective("MPI_Barrier", 250, 300)
    result = report(b, tmp_path)
    comm, sync = (50 + 80) * NS, (100 + 50) * NS
    assert property_rows(result, "comm_cost")["prog/main"] == pytest.approx(comm)
    assert property_rows(result, "comm_cost")["prog/main/MPI_Recv"] == pytest.approx(80 * NS)
    assert property_rows(result, "sync_cost")["prog"] == pytest.approx(sync)
    assert property_rows(result, "total_cost")["prog"] == pytest.approx(comm + sync)
    assert property_rows(result, "io_cost") == {}
    row = next(r for r in result["results"] if r["property"] == "total_cost" and r["callpath"] == "prog")
    assert row["severity"] == pytest.approx((130 + 150) / 2000)
    # ranked: the aggregates count at their deepest call path; the costs of MPI_Recv are one
    # problem there (comm_cost 80 + ... ns), never total_cost at the program root
    at_recv = next(e for e in result["problems"] if e["place"] == "prog/main/MPI_Recv")
    assert {"total_cost", "comm_cost"} <= {at_recv["property"], *at_recv["also"]}
    assert not aggregate_places(result) & {"prog", "prog/main"}


@RUNS.run()
def io_run():
    b = TraceBuilder(1)
    with b[0].open("main", 0, 1000):
        b[0].region("fwrite", 100, 150)  # ISO C I/O, by its region role
        with b[0].open("write_output", 200, 500):  # the application's own output routine
            b[0].region("fwrite", 300, 400)
    return b


def test_io_cost_counts_file_io_and_the_io_group(runs):
    result = runs.evaluate(io_run, "io_cost")
    assert property_rows(result, "io_cost") == {
        "prog": pytest.approx(150 * NS),
        "prog/main": pytest.approx(150 * NS),
        "prog/main/fwrite": pytest.approx(50 * NS),
        "prog/main/write_output": pytest.approx(100 * NS),
        "prog/main/write_output/fwrite": pytest.approx(100 * NS),
    }
    # with write_output in the IO group its own 300 - 100 ns count as I/O too
    grouped = runs.evaluate(io_run, *COSTS, params={"p_io_group": "^write_output$"})
    assert property_rows(grouped, "io_cost")["prog/main/write_output"] == pytest.approx(300 * NS)
    assert property_rows(grouped, "total_cost")["prog"] == pytest.approx(350 * NS)
    assert property_rows(grouped, "comm_cost") == {} and property_rows(grouped, "sync_cost") == {}


@RUNS.run()
def isend_wait_run():
    b = TraceBuilder(2)
    with b[0].open("main", 0, 1000):
        b[0].mpi_isend(100, 110, dst=1, tag=0, nbytes=1 << 20, request=1)
        b[0].mpi_wait(120, 700, requests=[1], call="MPI_Wait")  # completes once the receive is posted
    with b[1].open("main", 0, 1000):
        b[1].mpi_recv(500, 710, src=0, tag=0, nbytes=1 << 20)
    return b


def test_late_receiver_at_the_wait_completing_an_isend(runs):
    result = runs.evaluate(isend_wait_run, "mpi_latereceiver", "mpi_latesender")
    # Scmp = the MPI_Wait (E 120, L 700 > E(Rreq) 500): idle = 500 - 120, at the Wait's call path
    assert property_rows(result, "mpi_latereceiver") == {"prog/main/MPI_Wait": pytest.approx(380 * NS)}
    assert property_rows(result, "mpi_latesender") == {}


def test_clock_condition_violation_is_clamped(tmp_path):
    b = TraceBuilder(2)
    with b[0].open("main", 0, 1000):
        b[0].mpi_send(300, 310, dst=1, tag=0, nbytes=8)  # "sent" after the receive completed
    with b[1].open("main", 0, 1000):
        b[1].mpi_recv(100, 200, src=0, tag=0, nbytes=8)
    result = report(b, tmp_path)
    # Scalasca: idle = min(E(S) = 300, L(R) = 200) - E(R): never beyond the receive's own Leave
    assert property_rows(result, "mpi_latesender") == {"prog/main/MPI_Recv": pytest.approx(100 * NS)}
    assert property_rows(result, "mpi_latereceiver") == {}
    assert all(r["value"] >= 0 for r in result["results"] if r["status"] == "evaluated")


@RUNS.run()
def control_run():
    b = TraceBuilder(2)
    with b[0].open("main", 0, 1000):
        b[0].mpi_send(100, 110, dst=1, tag=0, nbytes=8)
    with b[1].open("main", 0, 1000):
        b[1].mpi_recv(200, 210, src=0, tag=0, nbytes=8)  # the send came first, the receive finds it
    return b


def test_control_trace_has_no_wait_states(runs):
    wait_states = (
        "late_sender",
        "late_receiver",
        *WRONG_ORDER,
        "mpi_latesender",
        "mpi_latereceiver",
        "mpi_latesender_wo",
        *LSWO,
        "idle_late_sender",
        "idle_late_receiver",
        "slow_slaves",
        "overloaded_master",
        "load_imbalance_at_barrier",
    )
    result = runs.evaluate(control_run, *wait_states)
    for prop in wait_states:
        assert property_rows(result, prop) == {} and property_rows(result, prop, all_processes=False) == {}, prop
