"""Collective instances: k-th collective per communicator, B/X and E/L per rank."""

from conftest import load_built, rows
from cosydb.fixtures.generator import TraceBuilder


def test_instances_on_world_and_subcommunicator(tmp_path):
    b = TraceBuilder(3)
    b.communicator("evens", [0, 2])
    times = {0: 10, 1: 40, 2: 25}
    for r in range(3):
        with b[r].open("main", 0, 1000):
            b[r].collective("MPI_Barrier", times[r], 50, begin=times[r] + 1, end=49)
            b[r].collective("MPI_Allreduce", 100 + r, 200, sent=8, received=8)
            if r != 1:
                b[r].collective(
                    "MPI_Bcast", 300 + r, 400, comm="evens", root=2, sent=0 if r else 64, received=64 if r == 0 else 0
                )
    con = load_built(b, tmp_path)
    got = rows(
        con,
        """
        SELECT ci.*, c.name AS comm, l.rank, rl.rank AS root_world_rank
        FROM collective_instances ci
        JOIN communicators c USING (experiment_id, comm_id)
        JOIN locations l USING (experiment_id, location_id)
        LEFT JOIN locations rl ON rl.experiment_id = ci.experiment_id AND rl.location_id = ci.root_location_id
        ORDER BY comm, instance_index, rank""",
    )
    world = [g for g in got if g["comm"] == "MPI_COMM_WORLD"]
    assert [(g["instance_index"], g["coll_op"], g["rank"]) for g in world] == [
        (1, "BARRIER", 0),
        (1, "BARRIER", 1),
        (1, "BARRIER", 2),
        (2, "ALLREDUCE", 0),
        (2, "ALLREDUCE", 1),
        (2, "ALLREDUCE", 2),
    ]
    barrier = [g for g in world if g["instance_index"] == 1]
    assert [(g["call_enter_time"], g["begin_time"], g["end_time"], g["call_leave_time"]) for g in barrier] == [
        (10, 11, 49, 50),
        (40, 41, 49, 50),
        (25, 26, 49, 50),
    ]
    evens = [g for g in got if g["comm"] == "evens"]
    assert [(g["rank"], g["comm_rank"], g["comm_size"], g["root_rank"], g["root_world_rank"]) for g in evens] == [
        (0, 0, 2, 1, 2),
        (2, 1, 2, 1, 2),
    ]
    assert [(g["bytes_sent"], g["bytes_received"]) for g in evens] == [(64, 64), (0, 0)]
