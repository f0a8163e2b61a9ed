"""The CRE / ASL wrong-order patterns over the blocking and non-blocking point-to-point forms.

WrongOrder (ASL §3.4.1.15, CRE report §6.3): a message received while an older message from
the same sender to the same receiver is still in the message queue. A receive happens at
its Receive event, in the call completing it (MPI_Recv; for MPI_Irecv the Wait/Test that
completes it); messages completed by one call are received together. MessagesInWrongOrder
costs the call holding the send plus the completing call (once per call). WrongOrderLs /
WrongOrderLr refine the CRE LateSender / LateReceiver and so keep their forms (MPI_Recv
and MPI_Send). See properties/cre/wrong_order_matches.sql.

Every expected value is computed by hand from the timings the scenario constructs
(1 tick = 1 ns), never from an earlier output of cosydb.
"""

import collections

import otf2
import pytest
from conftest import ConstructedRuns, real_trace, run_name
from cosydb.fixtures.generator import TraceBuilder

from cosydb import catalog, database, evaluator

NS = 1e-9
ENTRIES = [
    "wrong_order_matches",
    "messages_in_wrong_order",
    "wrong_order_ls",
    "wrong_order_lr",
    "late_sender",
    "late_receiver",
]


#: the constructed runs of this module's tests, loaded together (``runs``)
RUNS = ConstructedRuns()


def evaluate(runs, make, *args):
    """Evaluate the wrong-order entries on the experiment of the run ``make(*args)``."""
    con = database.connect(runs.db)
    (experiment_id,) = con.execute(
        "SELECT experiment_id FROM experiments WHERE name = ?", [run_name(make, args)]
    ).fetchone()
    evaluation = evaluator.evaluate(con, catalog.load(), experiment_id, {}, ENTRIES)
    assert {name: evaluation.status[name] for name in ENTRIES} == {name: "evaluated" for name in ENTRIES}
    return evaluation


def matches(evaluation):
    """The wrong_order_matches rows by (receiving rank, tag), with the receiving call path."""
    return {
        (r["rank"], r["tag"]): r
        for r in evaluation.query("""
        SELECT l.rank, c.path, m.* FROM {{ ref('wrong_order_matches') }} m
        JOIN callpaths c ON c.experiment_id = $p_experiment_id AND c.callpath_id = m.callpath_id
        JOIN locations l ON l.experiment_id = $p_experiment_id AND l.location_id = m.location_id""")
        .to_arrow_table()
        .to_pylist()
    }


def per_process(evaluation, prop):
    """{(call path, rank): value} of a property's per-location rows."""
    return {
        (r["path"], r["rank"]): r["value"]
        for r in evaluation.query(f"""
        SELECT c.path, l.rank, p.value FROM {{{{ ref('{prop}') }}}} p
        JOIN callpaths c ON c.experiment_id = $p_experiment_id AND c.callpath_id = p.callpath_id
        JOIN locations l ON l.experiment_id = $p_experiment_id AND l.location_id = p.location_id""")
        .to_arrow_table()
        .to_pylist()
    }


def waitall(rank, enter, leave, completions):
    """MPI_Waitall completing Irecv requests whose Receive events lie at the given ticks
    inside the call (the generator's mpi_wait puts them all at the Leave)."""
    rank.enter(enter, "MPI_Waitall")
    for request, time in completions:
        src, tag, nbytes, comm, _ = rank.pending_irecvs.pop(request)
        rank.events.append((time, "irecv", (src, tag, nbytes, comm, request)))
    rank.leave(leave)


@RUNS.run()
def recv_send_run():
    """As tests/test_properties_p2p.py::test_wrong_order_patterns."""
    b = TraceBuilder(2)
    with b[0].open("main", 0, 1000):
        b[0].mpi_send(100, 110, dst=1, tag=1, nbytes=8)  # older message, received last
        b[0].mpi_send(200, 210, dst=1, tag=2, nbytes=8)
    with b[1].open("main", 0, 1000):
        b[1].mpi_recv(50, 250, src=0, tag=2, nbytes=8)  # waits 200 - 50 for the newer message
        b[1].mpi_recv(300, 400, src=0, tag=1, nbytes=8)
    return b


def test_recv_send_case_is_unchanged(runs):
    evaluation = evaluate(runs, recv_send_run)
    # at the receive of tag 2 (t = 250) the tag-1 message (sent at 100 < 200) is still queued
    m = matches(evaluation)
    assert set(m) == {(1, 2)}
    assert m[(1, 2)]["send_call_s"] == pytest.approx(10 * NS) and m[(1, 2)]["recv_call_s"] == pytest.approx(200 * NS)
    assert per_process(evaluation, "messages_in_wrong_order") == {("prog/main/MPI_Recv", 1): pytest.approx(210 * NS)}
    assert per_process(evaluation, "wrong_order_ls") == {("prog/main/MPI_Recv", 1): pytest.approx(150 * NS)}
    assert per_process(evaluation, "wrong_order_lr") == {}


@RUNS.run()
def isend_waitall_run():
    """Rank 0 sends tags 1, 2, 3 by MPI_Isend + MPI_Wait; rank 1 completes tags 2 and 3 in one
    MPI_Waitall (50..400) and tag 1 in a later one (520..600)."""
    b = TraceBuilder(2)
    with b[0].open("main", 0, 2000):
        for tag, (isend, wait) in enumerate([(100, 120), (200, 220), (240, 260)], start=1):
            b[0].mpi_isend(isend, isend + 10, dst=1, tag=tag, nbytes=8, request=tag)
            b[0].mpi_wait(wait, wait + 10, requests=[tag], call="MPI_Wait")
    with b[1].open("main", 0, 2000):
        b[1].mpi_irecv(10, 20, src=0, tag=2, nbytes=8, request=1)
        b[1].mpi_irecv(30, 40, src=0, tag=3, nbytes=8, request=2)
        b[1].mpi_wait(50, 400, requests=[1, 2], call="MPI_Waitall")  # tags 2 and 3 received at 400
        b[1].mpi_irecv(500, 510, src=0, tag=1, nbytes=8, request=3)
        b[1].mpi_wait(520, 600, requests=[3], call="MPI_Waitall")  # the oldest, tag 1, at 600
    return b


def test_isend_wait_senders_and_an_out_of_order_irecv_waitall_receiver(runs):
    evaluation = evaluate(runs, isend_waitall_run)
    m = matches(evaluation)
    # tags 2 (sent 200) and 3 (sent 240) are received at 400 while tag 1 (sent 100) waits
    # for a later Waitall; tag 2 and tag 3 leave the queue together, neither waits on the other
    assert set(m) == {(1, 2), (1, 3)}
    assert {r["recv_call"] for r in m.values()} == {"MPI_Waitall"} and {r["send_call"] for r in m.values()} == {
        "MPI_Isend"
    }
    # cost: the MPI_Isend (10) + the completing Waitall (50..400), the Waitall once (with tag 2)
    assert m[(1, 2)]["cost_s"] == pytest.approx((10 + 350) * NS)
    assert m[(1, 3)]["cost_s"] == pytest.approx(10 * NS)
    assert per_process(evaluation, "messages_in_wrong_order") == {("prog/main/MPI_Waitall", 1): pytest.approx(370 * NS)}
    # the CRE LateSender / LateReceiver and so their wrong-order refinements take MPI_Recv / MPI_Send only
    assert per_process(evaluation, "late_sender") == {} and per_process(evaluation, "wrong_order_ls") == {}
    assert per_process(evaluation, "wrong_order_lr") == {}


@RUNS.run()
def one_waitall_run():
    """Rank 1 completes two messages of rank 0 in one MPI_Waitall, the newer one first."""
    b = TraceBuilder(2)
    with b[0].open("main", 0, 1000):
        b[0].mpi_send(100, 110, dst=1, tag=1, nbytes=8)
        b[0].mpi_send(200, 210, dst=1, tag=2, nbytes=8)
    with b[1].open("main", 0, 1000):
        b[1].mpi_irecv(10, 20, src=0, tag=2, nbytes=8, request=1)
        b[1].mpi_irecv(30, 40, src=0, tag=1, nbytes=8, request=2)
        # the call reports the newer message first (390) and the older one after it (395)
        waitall(b[1], 50, 400, [(1, 390), (2, 395)])
    return b


def test_messages_completed_by_one_waitall_are_received_together(runs):
    evaluation = evaluate(runs, one_waitall_run)
    assert matches(evaluation) == {} and per_process(evaluation, "messages_in_wrong_order") == {}


SEND_MODES = ["MPI_Send", "MPI_Ssend", "MPI_Bsend", "MPI_Rsend"]


@RUNS.run(*((call,) for call in SEND_MODES))
def blocking_send_run(call):
    """Rank 0 sends tags 1 and 2 by ``call``; rank 1 receives tag 2 first."""
    b = TraceBuilder(2)
    with b[0].open("main", 0, 1000):
        b[0].mpi_send(100, 110, dst=1, tag=1, nbytes=8, call=call)
        b[0].mpi_send(200, 210, dst=1, tag=2, nbytes=8, call=call)
    with b[1].open("main", 0, 1000):
        b[1].mpi_recv(50, 250, src=0, tag=2, nbytes=8)
        b[1].mpi_recv(300, 400, src=0, tag=1, nbytes=8)
    return b


@pytest.mark.parametrize("call", SEND_MODES)
def test_blocking_send_modes(runs, call):
    evaluation = evaluate(runs, blocking_send_run, call)
    assert set(matches(evaluation)) == {(1, 2)} and matches(evaluation)[(1, 2)]["send_call"] == call
    # send call 200..210 + receive call 50..250
    assert per_process(evaluation, "messages_in_wrong_order") == {("prog/main/MPI_Recv", 1): pytest.approx(210 * NS)}
    # idle E(send) 200 - E(recv) 50 only where the CRE LateSender matches (the seed's MPI_SEND)
    expected = {("prog/main/MPI_Recv", 1): pytest.approx(150 * NS)} if call == "MPI_Send" else {}
    assert per_process(evaluation, "late_sender") == expected and per_process(evaluation, "wrong_order_ls") == expected


@RUNS.run()
def ssend_irecvs_run():
    """MPI_Ssend of tags 1 and 2 against two MPI_Irecv, whose MPI_Wait complete tag 2 first."""
    b = TraceBuilder(2)
    with b[0].open("main", 0, 1000):
        b[0].mpi_send(100, 150, dst=1, tag=1, nbytes=8, call="MPI_Ssend")  # both receives are posted
        b[0].mpi_send(200, 250, dst=1, tag=2, nbytes=8, call="MPI_Ssend")
    with b[1].open("main", 0, 1000):
        b[1].mpi_irecv(10, 20, src=0, tag=1, nbytes=8, request=1)
        b[1].mpi_irecv(30, 40, src=0, tag=2, nbytes=8, request=2)
        b[1].mpi_wait(50, 400, requests=[2], call="MPI_Wait")  # tag 2 first, at 400
        b[1].mpi_wait(500, 510, requests=[1], call="MPI_Wait")  # tag 1 (sent 100) only at 510
    return b


def test_ssend_completing_against_irecvs_waited_for_out_of_order(runs):
    evaluation = evaluate(runs, ssend_irecvs_run)
    assert set(matches(evaluation)) == {(1, 2)}
    # the MPI_Ssend 200..250 + the MPI_Wait 50..400
    assert per_process(evaluation, "messages_in_wrong_order") == {("prog/main/MPI_Wait", 1): pytest.approx(400 * NS)}


@RUNS.run(("MPI_Send",), ("MPI_Ssend",))
def blocked_sender_run(call):
    """Rank 0 sends tag 1, then tag 2 by ``call``, blocked until rank 1 posts its receive."""
    b = TraceBuilder(2)
    with b[0].open("main", 0, 1000):
        b[0].mpi_send(100, 110, dst=1, tag=1, nbytes=8)  # older message, received last
        b[0].mpi_send(200, 700, dst=1, tag=2, nbytes=1 << 20, call=call)  # blocks until the receive is posted
    with b[1].open("main", 0, 1000):
        b[1].mpi_recv(500, 710, src=0, tag=2, nbytes=1 << 20)
        b[1].mpi_recv(800, 810, src=0, tag=1, nbytes=8)
    return b


@pytest.mark.parametrize("call", ["MPI_Send", "MPI_Ssend"])
def test_blocked_sender_of_a_message_received_out_of_order(runs, call):
    evaluation = evaluate(runs, blocked_sender_run, call)
    # at the receive of tag 2 (710) the tag-1 message, sent at 100 < 200, is still queued
    assert set(matches(evaluation)) == {(1, 2)}
    # send call 200..700 + receive call 500..710
    assert per_process(evaluation, "messages_in_wrong_order") == {("prog/main/MPI_Recv", 1): pytest.approx(710 * NS)}
    # E(recv) 500 - E(send) 200 while the send is active, where the CRE LateReceiver matches (MPI_SEND)
    expected = {(f"prog/main/{call}", 0): pytest.approx(300 * NS)} if call == "MPI_Send" else {}
    assert (
        per_process(evaluation, "late_receiver") == expected and per_process(evaluation, "wrong_order_lr") == expected
    )
    assert per_process(evaluation, "wrong_order_ls") == {}


@RUNS.run()
def sendrecv_and_test_run():
    """Rank 1 receives out of order in MPI_Sendrecv, rank 2 in MPI_Test (see the test)."""
    b = TraceBuilder(3)
    with b[0].open("main", 0, 1000):
        b[0].mpi_send(100, 110, dst=1, tag=1, nbytes=8)
        b[0].mpi_send(200, 210, dst=1, tag=2, nbytes=8)
        b[0].mpi_send(120, 130, dst=2, tag=1, nbytes=8)
        b[0].mpi_send(220, 230, dst=2, tag=2, nbytes=8)
        b[0].mpi_recv(600, 610, src=1, tag=2, nbytes=8)  # the send half of rank 1's MPI_Sendrecv
    with b[1].open("main", 0, 1000):
        # receives tag 2 (sent 200) at 250 while tag 1 (sent 100) waits for the MPI_Recv at 300
        b[1].mpi_sendrecv(50, 250, dst=0, src=0, tag=2, nbytes=8)
        b[1].mpi_recv(300, 400, src=0, tag=1, nbytes=8)
    with b[2].open("main", 0, 1000):
        b[2].mpi_irecv(10, 20, src=0, tag=2, nbytes=8, request=1)
        b[2].mpi_irecv(30, 40, src=0, tag=1, nbytes=8, request=2)
        b[2].mpi_wait(300, 310, requests=[1], call="MPI_Test")  # tag 2 completes in MPI_Test at 310
        b[2].mpi_wait(400, 410, requests=[2], call="MPI_Wait")  # tag 1 (sent 120 < 220) at 410
    return b


def test_sendrecv_and_test_completions(runs):
    evaluation = evaluate(runs, sendrecv_and_test_run)
    assert set(matches(evaluation)) == {(1, 2), (2, 2)}
    # rank 1: MPI_Send 200..210 + MPI_Sendrecv 50..250; rank 2: MPI_Send 220..230 + MPI_Test 300..310
    assert per_process(evaluation, "messages_in_wrong_order") == {
        ("prog/main/MPI_Sendrecv", 1): pytest.approx(210 * NS),
        ("prog/main/MPI_Test", 2): pytest.approx(20 * NS),
    }


def raw_wrong_order(anchor):
    """Wrong-order messages per receiver location, from the raw records with the otf2 reader:
    messages matched FIFO per (communicator, sender, receiver, tag); a message received in
    call C is in wrong order when an older message of the same sender to the same receiver,
    sent at or before its receive, is received in a later call than C or never. Also returns
    the number of messages sent."""
    sends = collections.defaultdict(list)  # channel -> send times, in order
    recvs = collections.defaultdict(list)  # channel -> (receive time, completing call), in order
    stacks, entered = collections.defaultdict(list), collections.Counter()
    with otf2.reader.open(str(anchor)) as trace:
        for location, event in trace.events:
            kind, me = type(event).__name__, location._ref
            if kind == "Enter":
                entered[me] += 1
                stacks[me].append(entered[me])
            elif kind == "Leave":
                stacks[me].pop()
            elif kind in ("MpiSend", "MpiIsend"):
                dst = list(event.communicator.group.members)[event.receiver]._ref
                sends[(event.communicator.name, me, dst, event.msg_tag)].append(event.time)
            elif kind in ("MpiRecv", "MpiIrecv"):
                src = list(event.communicator.group.members)[event.sender]._ref
                recvs[(event.communicator.name, src, me, event.msg_tag)].append((event.time, stacks[me][-1]))
    pairs = collections.defaultdict(list)  # (sender, receiver) -> (send time, receive time, call)
    for channel, times in sends.items():
        received = recvs.get(channel, [])
        for i, sent in enumerate(times):
            pairs[channel[1:3]].append((sent, *(received[i] if i < len(received) else (None, None))))
    wrong = collections.Counter()
    for (_, receiver), messages in pairs.items():
        for sent, at, call in messages:
            if at is not None and any(s < sent and s <= at and (c is None or c > call) for s, _, c in messages):
                wrong[receiver] += 1
    return dict(wrong), sum(len(m) for m in pairs.values())


@RUNS.run()
def isend_overtaken_run():
    """Rank 0's MPI_Isend of tag 1 is received after its MPI_Send of tag 2."""
    b = TraceBuilder(2)
    with b[0].open("main", 0, 1000):
        b[0].mpi_isend(100, 110, dst=1, tag=1, nbytes=8, request=1)  # older message, received last
        b[0].mpi_send(200, 210, dst=1, tag=2, nbytes=8)
        b[0].mpi_wait(220, 230, requests=[1], call="MPI_Wait")
    with b[1].open("main", 0, 1000):
        b[1].mpi_recv(50, 250, src=0, tag=2, nbytes=8)
        b[1].mpi_recv(300, 400, src=0, tag=1, nbytes=8)
    return b


def test_the_raw_record_check_finds_a_constructed_wrong_order(runs):
    evaluation = evaluate(runs, isend_overtaken_run)
    assert set(matches(evaluation)) == {(1, 2)}
    (anchor,) = evaluation.query(
        "SELECT source_path FROM experiments WHERE experiment_id = $p_experiment_id"
    ).fetchone()
    assert raw_wrong_order(anchor) == ({1: 1}, 2)


@pytest.mark.parametrize("trace", ["hpccg-8-small", "minife-8-small", "lulesh_hyb-8x2-small"])
def test_wrong_order_on_real_traces_equals_the_raw_records(real_db, trace):
    """Irecv + Wait/Waitall, Isend and Send on real runs (no shared trace has a message
    overtaken by another of the same pair, so this guards against false matches)."""
    expected, messages = raw_wrong_order(real_trace(trace) / "traces.otf2")
    con = database.connect(real_db(trace))
    try:
        assert con.execute("SELECT count(*) FROM messages WHERE send_seq IS NOT NULL").fetchone()[0] == messages
        evaluation = evaluator.evaluate(con, catalog.load(), 1, {}, ["wrong_order_matches"])
        got = dict(
            evaluation.query("SELECT location_id, count(*) FROM {{ ref('wrong_order_matches') }} GROUP BY 1").fetchall()
        )
    finally:
        con.close()
    assert messages > 400 and got == expected
