"""Scalasca 2.6's rules for which send-completing calls count Late Receiver (issue 13, item 6).

Scalasca 2.6 (src/scout/generator/MPI.pattern, pattern MPI_LATERECEIVER; generated as
PatternMPI_LateReceiver in src/scout/Patterns_gen.cpp) counts mpi_latereceiver only at
- a blocking send, is_mpi_block_send (src/scout/Predicates.h): MPI_Send or MPI_Ssend;
  MPI_Sendrecv is classified as a non-blocking send-receive (src/pearl/base/Region.cpp,
  classify_mpi), MPI_Bsend / MPI_Rsend carry another send mode;
- a single wait, is_mpi_wait_single: MPI_Wait / MPI_Waitany completing an MPI_Isend;
- a multiple wait, is_mpi_wait_multi: MPI_Waitall / MPI_Waitsome, the largest idle over
  its sends, once - and only if that call is no Late Sender candidate ("MPI_SEND_COMPLETE"
  skips calls in m_ls_set, which LATE_SENDER_CANDIDATE fills whenever a receive the call
  completes has a late-sender idle min(E(S), L(R)) - E(R) > 0). A multiple wait whose
  receives all found their message already sent still counts its late receiver.

Every expected value is worked out by hand from the constructed timings (1 tick = 1 ns),
idle = E(Rreq) - E(Scmp) when L(Scmp) > E(Rreq), never taken from an earlier cosydb output.
"""

import pytest
from conftest import NS, ConstructedRuns
from conftest import property_rows as rows
from cosydb.fixtures.generator import TraceBuilder

PROPERTIES = ["mpi_latereceiver", "mpi_latesender"]
MULTIPLE_WAITS = ["MPI_Waitall", "MPI_Waitsome"]
BLOCKING_SENDS = ["MPI_Send", "MPI_Ssend"]
RECEIVES = ["MPI_Recv", "MPI_Irecv"]
OTHER_COMPLETIONS = ["MPI_Bsend", "MPI_Isend+MPI_Test"]

#: every run of this module, loaded together (``runs``)
RUNS = ConstructedRuns()


def report(runs, make, args=()):
    """The rows of PROPERTIES (and only theirs) on the run ``make(*args)`` builds."""
    return runs.evaluate(make, *PROPERTIES, args=args)


@RUNS.run()
def sendrecv_run():
    """Halo exchange of two ranks with MPI_Sendrecv; rank 1 computes and arrives late."""
    b = TraceBuilder(2)
    with b[0].open("main", 0, 1000):
        b[0].mpi_sendrecv(100, 600, dst=1, src=1, tag=0, nbytes=1 << 20)
    with b[1].open("main", 0, 1000):
        b[1].region("compute", 10, 490)
        b[1].mpi_sendrecv(500, 610, dst=0, src=0, tag=0, nbytes=1 << 20)
    return b


def test_sendrecv_is_no_late_receiver_but_its_receive_is_a_late_sender(runs):
    result = report(runs, sendrecv_run)
    # send half of rank 0: L(Scmp) = 600 > E(Rreq) = 500 would give 500 - 100 = 400, but Scmp is an
    # MPI_Sendrecv (cTYPE_MPI_SENDRECV | cMODE_MPI_NONBLOCKING): no Late Receiver for Scalasca.
    # Rank 1's send half: Rreq = rank 0's Sendrecv, E = 100 < E(Scmp) = 500: negative, none either.
    assert rows(result, "mpi_latereceiver") == {}
    assert rows(result, "mpi_latereceiver", all_processes=False) == {}
    # receive half of rank 0: S = rank 1's send at E = 500, R in rank 0's call (E 100, L 600):
    # min(500, 600) - 100 = 400. Rank 1: min(E(S) = 100, 610) - 500 < 0, no wait.
    assert rows(result, "mpi_latesender", all_processes=False) == {
        ("prog/main/MPI_Sendrecv", 0): pytest.approx(400 * NS)
    }


@RUNS.run(*((call, waits) for call in MULTIPLE_WAITS for waits in (True, False)))
def isend_waitall_run(call, receive_waits):
    """Rank 0 completes an MPI_Isend to rank 1 (posted late, at 500) and an MPI_Irecv from
    rank 1 in one ``call`` (E 100, L 800). Rank 1 sends its message at 600 (after the
    Waitall began: the receive waits) or at 50 (before it: the receive does not wait)."""
    send_at = 600 if receive_waits else 50
    b = TraceBuilder(2)
    with b[0].open("main", 0, 1000):
        b[0].mpi_irecv(10, 20, src=1, tag=0, nbytes=8, request=1)
        b[0].mpi_isend(30, 40, dst=1, tag=0, nbytes=1 << 20, request=2)
        b[0].mpi_wait(100, 800, requests=[1, 2], call=call)
    with b[1].open("main", 0, 1000):
        if not receive_waits:
            b[1].mpi_send(send_at, send_at + 10, dst=0, tag=0, nbytes=8)
        b[1].region("compute", 60, 490)
        b[1].mpi_recv(500, 550, src=0, tag=0, nbytes=1 << 20)
        if receive_waits:
            b[1].mpi_send(send_at, send_at + 20, dst=0, tag=0, nbytes=8)
    return b


@pytest.mark.parametrize("call", MULTIPLE_WAITS)
def test_multiple_wait_with_a_late_sender_wait_has_no_late_receiver(runs, call):
    result = report(runs, isend_waitall_run, (call, True))
    # the receive completed in the call: S = rank 1's MPI_Send at 600, R in the call (E 100, L 800):
    # min(600, 800) - 100 = 500 > 0, so the call is a Late Sender candidate ...
    assert rows(result, "mpi_latesender", all_processes=False) == {(f"prog/main/{call}", 0): pytest.approx(500 * NS)}
    # ... and its send, though its receive was posted late (L(Scmp) = 800 > E(Rreq) = 500,
    # idle 500 - 100 = 400), counts no Late Receiver. Rank 1's MPI_Send (E 600, L 620) found
    # rank 0's Irecv posted at 10: 10 - 600 < 0, none.
    assert rows(result, "mpi_latereceiver") == {}
    assert rows(result, "mpi_latereceiver", all_processes=False) == {}


@pytest.mark.parametrize("call", MULTIPLE_WAITS)
def test_multiple_wait_whose_receive_did_not_wait_counts_its_late_receiver(runs, call):
    result = report(runs, isend_waitall_run, (call, False))
    # the receive completed in the call: S = rank 1's MPI_Send at 50, before the call's Enter:
    # min(50, 800) - 100 < 0, no late-sender wait, so the call is no Late Sender candidate
    assert rows(result, "mpi_latesender") == {}
    # its send: L(Scmp) = 800 > E(Rreq) = 500, idle = 500 - 100 = 400 at the call's path.
    # Rank 1's MPI_Send (E 50, L 60): Rreq = rank 0's Irecv at 10, 10 - 50 < 0, none.
    assert rows(result, "mpi_latereceiver", all_processes=False) == {(f"prog/main/{call}", 0): pytest.approx(400 * NS)}


@RUNS.run()
def waitall_of_sends_run():
    """Rank 0 sends to ranks 1 and 2 with MPI_Isend and completes both in one MPI_Waitall
    (E 100, L 800); rank 1 posts its receive at 300, rank 2 at 600."""
    b = TraceBuilder(3)
    with b[0].open("main", 0, 1000):
        b[0].mpi_isend(10, 15, dst=1, tag=0, nbytes=1 << 20, request=1)
        b[0].mpi_isend(20, 25, dst=2, tag=0, nbytes=1 << 20, request=2)
        b[0].mpi_wait(100, 800, requests=[1, 2], call="MPI_Waitall")
    for rank, post_at in ((1, 300), (2, 600)):
        with b[rank].open("main", 0, 1000):
            b[rank].region("compute", 30, post_at - 10)
            b[rank].mpi_recv(post_at, 810, src=0, tag=0, nbytes=1 << 20)
    return b


def test_multiple_wait_completing_only_sends_counts_the_largest_once(runs):
    result = report(runs, waitall_of_sends_run)
    # per send: 300 - 100 = 200 and 600 - 100 = 500 (both L(Scmp) = 800 > E(Rreq));
    # the call counts the largest, 500, once (not 700)
    assert rows(result, "mpi_latereceiver", all_processes=False) == {
        ("prog/main/MPI_Waitall", 0): pytest.approx(500 * NS)
    }
    assert rows(result, "mpi_latereceiver") == {"prog/main/MPI_Waitall": pytest.approx(500 * NS)}
    # the receivers found their messages sent (E(S) = 10, 20 before E(R)): no late sender
    assert rows(result, "mpi_latesender") == {}


@RUNS.run(*((send_call, receive) for send_call in BLOCKING_SENDS for receive in RECEIVES))
def blocking_send_run(send_call, receive):
    """Rank 0's blocking ``send_call`` (E 100) lasts until rank 1 posts its ``receive`` at 500 (L 700)."""
    b = TraceBuilder(2)
    with b[0].open("main", 0, 1000):
        b[0].mpi_send(100, 700, dst=1, tag=0, nbytes=1 << 20, call=send_call)
    with b[1].open("main", 0, 1000):
        b[1].region("compute", 10, 490)
        if receive == "MPI_Recv":
            b[1].mpi_recv(500, 710, src=0, tag=0, nbytes=1 << 20)
        else:  # Rreq = the MPI_Irecv that posted the receive, not the MPI_Wait completing it
            b[1].mpi_irecv(500, 505, src=0, tag=0, nbytes=1 << 20, request=1)
            b[1].mpi_wait(600, 710, requests=[1], call="MPI_Wait")
    return b


@pytest.mark.parametrize("send_call", BLOCKING_SENDS)
@pytest.mark.parametrize("receive", RECEIVES)
def test_blocking_send_to_a_late_receive_stays_counted(runs, send_call, receive):
    result = report(runs, blocking_send_run, (send_call, receive))
    # is_mpi_block_send: L(Scmp) = 700 > E(Rreq) = 500, idle = 500 - 100 = 400
    assert rows(result, "mpi_latereceiver", all_processes=False) == {
        (f"prog/main/{send_call}", 0): pytest.approx(400 * NS)
    }
    # the receiver found the message sent (E(S) = 100 < E(R) = 500 or 600): no late sender
    assert rows(result, "mpi_latesender") == {}


@RUNS.run(*((call,) for call in OTHER_COMPLETIONS))
def other_completion_run(call):
    """Timings as in ``blocking_send_run``, but the send completes in a buffered send (another
    send mode than is_mpi_block_send's standard / synchronous) or in an MPI_Test (no MPI_Wait*)."""
    b = TraceBuilder(2)
    with b[0].open("main", 0, 1000):
        if call == "MPI_Bsend":
            b[0].mpi_send(100, 700, dst=1, tag=0, nbytes=1 << 20, call="MPI_Bsend")
        else:
            b[0].mpi_isend(50, 60, dst=1, tag=0, nbytes=1 << 20, request=1)
            b[0].mpi_wait(100, 700, requests=[1], call="MPI_Test")
    with b[1].open("main", 0, 1000):
        b[1].region("compute", 10, 490)
        b[1].mpi_recv(500, 710, src=0, tag=0, nbytes=1 << 20)
    return b


@pytest.mark.parametrize("call", OTHER_COMPLETIONS)
def test_sends_completed_outside_send_and_wait_are_no_late_receiver(runs, call):
    result = report(runs, other_completion_run, (call,))
    # L(Scmp) = 700 > E(Rreq) = 500 would give 400, but Scmp is no blocking send nor wait
    assert rows(result, "mpi_latereceiver") == {}
    assert rows(result, "mpi_latesender") == {}
