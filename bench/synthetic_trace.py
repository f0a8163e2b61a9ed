"""Write a large synthetic MPI trace fast, for benchmarks (not for correctness tests).

Each rank runs ``iterations`` steps of a halo-exchange solver::

    prog / main / MPI_Init
                / iterate / compute / kernel
                          / MPI_Irecv, MPI_Isend, MPI_Waitall   (ring neighbours)
                          / MPI_Allreduce                       (with B/X records)
                / MPI_Finalize

20 events per rank and step, 8 per rank around them. MPI regions are defined as Score-P
defines them, with source file "MPI", by which Scalasca's scout classifies them; MPI_Init
(enter and leave, as Score-P writes it) is its first synchronisation point (without it
scout stops on an assertion at the first wait state). Timings are built with numpy (compute time
varies by rank and step) so that every message's send precedes its receive
and every Allreduce ends after the last rank entered it. Definitions go
through the ``otf2`` writer; events through the OTF2 C writer functions
directly, bound once, because the Python wrapper re-binds them per call.
"""

from __future__ import annotations

import ctypes
from pathlib import Path

import numpy as np
import otf2
from _otf2.Config import conf
from otf2.enums import CollectiveOp, GroupType, LocationGroupType, LocationType, Paradigm, RegionRole

EVENTS_PER_STEP = 20
STEP_TICKS = 100_000  # 100 µs per step at 1 ns resolution
PROLOGUE_TICKS = 100  # MPI_Init, before the first step
UNDEFINED_ROOT = 0xFFFFFFFF


def _bind(name: str, *argtypes):
    function = getattr(conf.lib, f"OTF2_EvtWriter_{name}")
    function.argtypes = [ctypes.c_void_p, ctypes.c_void_p, ctypes.c_uint64, *argtypes]
    function.restype = ctypes.c_int
    return function


def _timings(nranks: int, iterations: int, seed: int = 1) -> dict[str, np.ndarray]:
    """Event times [step, rank] in ticks for every event of the step."""
    rng = np.random.default_rng(seed)
    start = PROLOGUE_TICKS + np.arange(iterations, dtype=np.int64)[:, None] * STEP_TICKS + np.zeros(nranks, np.int64)
    compute = 40_000 + 4_000 * (np.arange(nranks) % 4) + rng.integers(0, 5_000, (iterations, nranks))
    t = {"iterate_enter": start + 10, "compute_enter": start + 20}
    t["kernel_enter"] = t["compute_enter"] + 100
    t["kernel_leave"] = t["compute_enter"] + compute - 100
    t["compute_leave"] = t["compute_enter"] + compute
    t["irecv_enter"] = t["compute_leave"] + 200
    t["irecv_leave"] = t["irecv_enter"] + 500
    t["isend_enter"] = t["irecv_leave"] + 200
    t["isend_leave"] = t["isend_enter"] + 800
    t["wait_enter"] = t["isend_leave"] + 100
    left_isend = np.roll(t["isend_enter"], 1, axis=1)  # the message comes from rank - 1
    t["wait_leave"] = np.maximum(t["wait_enter"], left_isend + 2_000) + 300
    t["allreduce_enter"] = t["wait_leave"] + 200
    t["allreduce_leave"] = t["allreduce_enter"].max(axis=1, keepdims=True) + 1_500 + np.zeros(nranks, np.int64)
    t["iterate_leave"] = t["allreduce_leave"] + 100
    return t


def write_trace(directory: str | Path, nranks: int, events: int) -> Path:
    """Write about ``events`` events over ``nranks`` ranks to ``directory``; returns the anchor."""
    iterations = max(1, events // (nranks * EVENTS_PER_STEP))
    t = _timings(nranks, iterations)
    directory = Path(directory)
    directory.mkdir(parents=True, exist_ok=True)
    enter, leave = _bind("Enter", ctypes.c_uint32), _bind("Leave", ctypes.c_uint32)
    isend = _bind("MpiIsend", ctypes.c_uint32, ctypes.c_uint32, ctypes.c_uint32, ctypes.c_uint64, ctypes.c_uint64)
    irecv = _bind("MpiIrecv", ctypes.c_uint32, ctypes.c_uint32, ctypes.c_uint32, ctypes.c_uint64, ctypes.c_uint64)
    irecv_request = _bind("MpiIrecvRequest", ctypes.c_uint64)
    isend_complete = _bind("MpiIsendComplete", ctypes.c_uint64)
    coll_begin = _bind("MpiCollectiveBegin")
    coll_end = _bind(
        "MpiCollectiveEnd", ctypes.c_uint8, ctypes.c_uint32, ctypes.c_uint32, ctypes.c_uint64, ctypes.c_uint64
    )
    allreduce = int(CollectiveOp.ALLREDUCE.value)

    with otf2.writer.open(str(directory), timer_resolution=1_000_000_000) as trace:
        defs = trace.definitions
        node = defs.system_tree_node("node", parent=defs.system_tree_node("machine"))
        locations = []
        for r in range(nranks):
            group = defs.location_group(
                f"MPI Rank {r}", location_group_type=LocationGroupType.PROCESS, system_tree_parent=node
            )
            locations.append(defs.location("Master thread", type=LocationType.CPU_THREAD, group=group))
        defs.group("", group_type=GroupType.COMM_LOCATIONS, paradigm=Paradigm.MPI, members=locations)
        world = defs.comm(
            "MPI_COMM_WORLD",
            group=defs.group("", group_type=GroupType.COMM_GROUP, paradigm=Paradigm.MPI, members=list(range(nranks))),
        )

        def region(name, role, paradigm):
            source = "MPI" if paradigm == Paradigm.MPI else None  # Score-P's file of MPI functions
            return defs.region(name, canonical_name=name, region_role=role, paradigm=paradigm, source_file=source)._ref

        region("prog", RegionRole.ARTIFICIAL, Paradigm.MEASUREMENT_SYSTEM)  # the program root (id 0)
        main, iterate, compute, kernel = (
            region(n, RegionRole.FUNCTION, Paradigm.USER) for n in ("main", "iterate", "compute", "kernel")
        )
        r_irecv, r_isend, r_wait = (
            region(n, RegionRole.POINT2POINT, Paradigm.MPI) for n in ("MPI_Irecv", "MPI_Isend", "MPI_Waitall")
        )
        r_allreduce = region("MPI_Allreduce", RegionRole.COLL_ALL2ALL, Paradigm.MPI)
        r_init, r_finalize = (region(n, RegionRole.FUNCTION, Paradigm.MPI) for n in ("MPI_Init", "MPI_Finalize"))
        program_name = "prog"

        for rank, location in enumerate(locations):
            writer = trace.event_writer_from_location(location)
            w = ctypes.c_void_p(ctypes.cast(writer.handle, ctypes.c_void_p).value)
            first, last = 0, int(t["iterate_leave"][-1, rank]) + 20
            writer.program_begin(first, program_name, [])
            enter(w, None, first + 1, main)
            enter(w, None, first + 2, r_init)
            leave(w, None, first + 30, r_init)
            right, left = (rank + 1) % nranks, (rank - 1) % nranks
            for step in range(iterations):
                e = {k: int(v[step, rank]) for k, v in t.items()}
                enter(w, None, e["iterate_enter"], iterate)
                enter(w, None, e["compute_enter"], compute)
                enter(w, None, e["kernel_enter"], kernel)
                leave(w, None, e["kernel_leave"], kernel)
                leave(w, None, e["compute_leave"], compute)
                enter(w, None, e["irecv_enter"], r_irecv)
                irecv_request(w, None, e["irecv_enter"] + 1, 2 * step)
                leave(w, None, e["irecv_leave"], r_irecv)
                enter(w, None, e["isend_enter"], r_isend)
                isend(w, None, e["isend_enter"] + 1, right, world._ref, 7, 8192, 2 * step + 1)
                leave(w, None, e["isend_leave"], r_isend)
                enter(w, None, e["wait_enter"], r_wait)
                isend_complete(w, None, e["wait_leave"] - 2, 2 * step + 1)
                irecv(w, None, e["wait_leave"] - 1, left, world._ref, 7, 8192, 2 * step)
                leave(w, None, e["wait_leave"], r_wait)
                enter(w, None, e["allreduce_enter"], r_allreduce)
                coll_begin(w, None, e["allreduce_enter"] + 1)
                coll_end(w, None, e["allreduce_leave"] - 1, allreduce, world._ref, UNDEFINED_ROOT, 8, 8)
                leave(w, None, e["allreduce_leave"], r_allreduce)
                leave(w, None, e["iterate_leave"], iterate)
            enter(w, None, last - 8, r_finalize)
            leave(w, None, last - 2, r_finalize)
            leave(w, None, last - 1, main)
            writer.program_end(last, 0)
            location._number_of_events_written += 6 + EVENTS_PER_STEP * iterations  # the C calls
            trace._update_timestamps(first)
            trace._update_timestamps(last)
    return directory / "traces.otf2"


if __name__ == "__main__":
    import sys
    import time

    start = time.perf_counter()
    anchor = write_trace(sys.argv[1], int(sys.argv[2]), int(sys.argv[3]))
    print(anchor, f"{time.perf_counter() - start:.1f} s")
