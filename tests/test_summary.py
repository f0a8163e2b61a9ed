"""The trace-derived ASL MPISummary against a constructed run."""

import pytest
from conftest import load_built, rows
from cosydb.fixtures.generator import TraceBuilder


def test_mpi_summary(tmp_path):
    b = TraceBuilder(2)
    with b[0].open("main", 0, 1000):
        with b[0].open("solve", 100, 900):
            b[0].mpi_send(100, 150, dst=1, tag=1, nbytes=40)
            b[0].collective("MPI_Barrier", 200, 260)
            b[0].collective("MPI_Allreduce", 300, 330, sent=8, received=8)
        b[0].region("MPI_File_write", 950, 990)
    with b[1].open("main", 0, 1000):
        with b[1].open("solve", 100, 900):
            b[1].mpi_recv(100, 170, src=0, tag=1, nbytes=40)
            b[1].collective("MPI_Barrier", 200, 260)
            b[1].collective("MPI_Allreduce", 300, 330, sent=8, received=8)
    con = load_built(b, tmp_path)
    got = {
        (r["path"], r["rank"]): r
        for r in rows(
            con,
            """
        SELECT c.path, l.rank, s.* FROM mpi_summary s JOIN callpaths c USING (experiment_id, callpath_id)
        LEFT JOIN locations l USING (experiment_id, location_id)""",
        )
    }
    solve0 = got[("prog/main/solve", 0)]
    assert solve0["comm_s"] == pytest.approx((50 + 30) * 1e-9)  # MPI_Send + MPI_Allreduce
    assert solve0["sync_s"] == pytest.approx(60e-9)  # MPI_Barrier
    assert solve0["io_s"] == 0
    assert (solve0["bytes_sent"], solve0["bytes_received"]) == (40 + 8, 8)
    assert (solve0["messages_sent"], solve0["messages_received"]) == (1, 0)
    main0 = got[("prog/main", 0)]
    assert main0["io_s"] == pytest.approx(40e-9) and main0["incl_s"] == pytest.approx(1000e-9)
    all_procs = got[("prog/main/solve", None)]  # ALLPROCESSES row
    assert all_procs["comm_s"] == pytest.approx((50 + 30 + 70 + 30) * 1e-9)
    assert all_procs["executions"] == 2 and all_procs["bytes_received"] == 8 + 40 + 8


def test_region_classes(tmp_path):
    b = TraceBuilder(1)
    for name in [
        "MPI_Isend",
        "MPI_Waitall",
        "MPI_Barrier",
        "MPI_Bcast",
        "MPI_Init",
        "MPI_Ssend",
        "MPI_File_write",
        "MPI_Send",
        "MPI_Recv",
        "MPI_Test_cancelled",
        "MPI_Intercomm_create",
    ]:
        b[0].region(name, 0, 1)
    con = load_built(b, tmp_path)
    got = {r["name"]: r for r in rows(con, "SELECT * FROM region_classes")}
    assert (got["MPI_Isend"]["mpi_class"], got["MPI_Isend"]["p2p_type"], got["MPI_Isend"]["is_blocking"]) == (
        "p2p",
        "send",
        False,
    )
    assert (got["MPI_Waitall"]["mpi_class"], got["MPI_Waitall"]["p2p_type"], got["MPI_Waitall"]["is_blocking"]) == (
        "p2p",
        "completion",
        True,
    )
    assert (got["MPI_Barrier"]["mpi_class"], got["MPI_Barrier"]["is_sync"], got["MPI_Barrier"]["is_comm"]) == (
        "sync",
        True,
        False,
    )
    assert (got["MPI_Bcast"]["coll_type"], got["MPI_Bcast"]["is_comm"]) == ("one2all", True)
    assert (got["MPI_Init"]["mpi_class"], got["MPI_Init"]["is_blocking"]) == ("management", True)
    assert got["MPI_Ssend"]["p2p_mode"] == "synchronous"
    assert (got["MPI_Send"]["p2p_type"], got["MPI_Send"]["p2p_mode"], got["MPI_Send"]["is_blocking"]) == (
        "send",
        "standard",
        True,
    )
    assert (got["MPI_Recv"]["p2p_type"], got["MPI_Recv"]["is_blocking"]) == ("recv", True)
    assert (got["MPI_Test_cancelled"]["mpi_class"], got["MPI_Test_cancelled"]["p2p_type"]) == ("management", None)
    assert got["MPI_Intercomm_create"]["is_blocking"]
    assert got["MPI_File_write"]["is_io"] and got["main" if "main" in got else "prog"]["mpi_class"] is None
