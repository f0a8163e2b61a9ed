"""sendptr / the messages view and the message queue, against constructed messages."""

from conftest import load_built, rows
from cosydb.fixtures.generator import TraceBuilder

MESSAGES = """
    SELECT m.*, sr.name AS send_call, rr.name AS recv_call, pr.name AS post_call,
           cr.name AS complete_call, ls.rank AS src, ld.rank AS dst
    FROM messages m
    JOIN locations ls ON ls.experiment_id = m.experiment_id AND ls.location_id = m.send_location_id
    JOIN locations ld ON ld.experiment_id = m.experiment_id AND ld.location_id = m.recv_location_id
    LEFT JOIN regions sr ON sr.experiment_id = m.experiment_id AND sr.region_id = m.send_call_region_id
    LEFT JOIN regions rr ON rr.experiment_id = m.experiment_id AND rr.region_id = m.recv_call_region_id
    LEFT JOIN regions pr ON pr.experiment_id = m.experiment_id AND pr.region_id = m.recv_post_call_region_id
    LEFT JOIN regions cr ON cr.experiment_id = m.experiment_id AND cr.region_id = m.send_complete_call_region_id
    ORDER BY m.send_time
"""


def test_blocking_fifo_per_tag(tmp_path):
    """Two messages with one tag match in order; a third tag is matched separately."""
    b = TraceBuilder(2)
    with b[0].open("main", 0, 1000):
        b[0].mpi_send(10, 20, dst=1, tag=7, nbytes=100)
        b[0].mpi_send(30, 40, dst=1, tag=9, nbytes=300)
        b[0].mpi_send(50, 60, dst=1, tag=7, nbytes=200)
    with b[1].open("main", 0, 1000):
        b[1].mpi_recv(100, 110, src=0, tag=9, nbytes=300)  # received out of send order
        b[1].mpi_recv(200, 210, src=0, tag=7, nbytes=100)
        b[1].mpi_recv(300, 310, src=0, tag=7, nbytes=200)
    con = load_built(b, tmp_path)
    got = rows(con, MESSAGES)
    assert [(m["tag"], m["send_bytes"], m["recv_bytes"]) for m in got] == [(7, 100, 100), (9, 300, 300), (7, 200, 200)]
    assert [m["recv_time"] - m["send_time"] for m in got] == [200, 80, 260]
    assert all(m["send_call"] == "MPI_Send" and m["recv_call"] == "MPI_Recv" == m["post_call"] for m in got)
    first = got[0]
    assert (first["send_call_enter_time"], first["send_call_leave_time"]) == (10, 20)
    assert (first["recv_call_enter_time"], first["recv_call_leave_time"]) == (200, 210)


def test_nonblocking_with_waitall(tmp_path):
    b = TraceBuilder(3)
    with b[0].open("main", 0, 1000):
        b[0].mpi_irecv(10, 11, src=1, tag=1, nbytes=8, request=1)
        b[0].mpi_irecv(12, 13, src=2, tag=1, nbytes=16, request=2)
        b[0].mpi_wait(20, 500, requests=[1, 2], call="MPI_Waitall")
    with b[1].open("main", 0, 1000):
        b[1].mpi_isend(100, 105, dst=0, tag=1, nbytes=8, request=1)
        b[1].mpi_wait(300, 310, requests=[1], call="MPI_Wait")
    with b[2].open("main", 0, 1000):
        b[2].mpi_send(400, 450, dst=0, tag=1, nbytes=16)
    con = load_built(b, tmp_path)
    got = {m["src"]: m for m in rows(con, MESSAGES)}
    assert set(got) == {1, 2}
    isend = got[1]
    assert isend["send_call"] == "MPI_Isend" and isend["complete_call"] == "MPI_Wait"
    assert (isend["send_complete_call_enter_time"], isend["send_complete_time"]) == (300, 310)
    assert isend["recv_call"] == "MPI_Waitall" and isend["post_call"] == "MPI_Irecv"
    assert (isend["recv_post_call_enter_time"], isend["recv_call_leave_time"]) == (10, 500)
    blocking = got[2]
    assert blocking["complete_call"] == "MPI_Send" and blocking["send_complete_seq"] == blocking["send_seq"]
    assert blocking["post_call"] == "MPI_Irecv" and blocking["recv_post_call_enter_time"] == 12
    assert blocking["send_bytes"] == 16


def test_subcommunicator_ranks_are_translated(tmp_path):
    """On a communicator of world ranks (3, 1), comm rank 0 is world rank 3."""
    b = TraceBuilder(4)
    b.communicator("pair", [3, 1])
    for r in (0, 2):
        b[r].region("main", 0, 100)
    with b[3].open("main", 0, 100):
        b[3].mpi_send(10, 20, dst=1, tag=0, nbytes=4, comm="pair")
    with b[1].open("main", 0, 100):
        b[1].mpi_recv(5, 30, src=3, tag=0, nbytes=4, comm="pair")
    con = load_built(b, tmp_path)
    got = rows(con, MESSAGES)
    assert len(got) == 1 and (got[0]["src"], got[0]["dst"]) == (3, 1)
    raw = rows(con, "SELECT partner FROM events WHERE type = 'MPI_SEND'")
    assert raw[0]["partner"] == 1  # the record holds the communicator rank


def test_unmatched_and_message_queue(tmp_path):
    b = TraceBuilder(2)
    with b[0].open("main", 0, 1000):
        b[0].mpi_send(10, 20, dst=1, tag=1, nbytes=4)
        b[0].mpi_send(30, 40, dst=1, tag=1, nbytes=4)  # never received
    with b[1].open("main", 0, 1000):
        b[1].mpi_recv(50, 60, src=0, tag=1, nbytes=4)
    con = load_built(b, tmp_path)
    got = rows(con, MESSAGES)
    assert [m["recv_seq"] is None for m in got] == [False, True]
    warnings = rows(con, "SELECT * FROM load_warnings WHERE \"check\" = 'unmatched_messages'")
    assert [(w["count"], w["detail"]) for w in warnings] == [(1, "send without matching receive")]
    offset = rows(con, "SELECT global_offset FROM experiments")[0]["global_offset"]

    def queue(t):
        return [m["send_time"] - offset for m in rows(con, f"SELECT * FROM message_queue(1, 0, 1, {offset + t})")]

    assert queue(5) == []
    assert queue(35) == [10, 30]
    assert queue(60) == [30]  # the first message was received at 60


def test_clock_condition_violation_is_counted(tmp_path):
    b = TraceBuilder(2)
    with b[0].open("main", 0, 1000):
        b[0].mpi_send(500, 510, dst=1, tag=1, nbytes=4)
    with b[1].open("main", 0, 1000):
        b[1].mpi_recv(100, 200, src=0, tag=1, nbytes=4)  # completes before the send starts
    con = load_built(b, tmp_path)
    warnings = rows(con, "SELECT * FROM load_warnings WHERE \"check\" = 'clock_condition'")
    assert [w["count"] for w in warnings] == [1]
