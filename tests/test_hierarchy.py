"""One hierarchy: ``parent`` means "a part of". A time-valued entry's value at a (call path,
location) is at most its parent's there; a category's value is its ``time_cube`` total.

Checked on a constructed run with random timings (point-to-point in every order, wrong-order
messages, barriers and collectives) and on the real hybrid LULESH trace (OpenMP)."""

from __future__ import annotations

import random

import pytest
from cosydb.fixtures.generator import TraceBuilder

from cosydb import catalog, database
from cosydb.loading import load
from cosydb.report import run

US = 1000


def random_run(seed: int, steps: int = 12) -> TraceBuilder:
    """Four ranks in ``steps`` phases; each phase starts everywhere at the same time, then
    each rank computes a random time and either exchanges a message with its partner
    (blocking, each side leaving when both have arrived), sends two messages that are
    received in the wrong order, or enters a collective that ends when the last rank
    arrived."""
    rng = random.Random(seed)
    b = TraceBuilder(4, program="random")
    t = 0
    with_main = [b[r].open("main", 0, (steps * 2000 + 1000) * US) for r in range(4)]
    for context in with_main:
        context.__enter__()
    for step in range(steps):
        start = t + 10 * US
        work = [rng.randint(1, 800) * US for _ in range(4)]
        for r in range(4):
            b[r].region("compute", start, start + work[r])
        arrive = [start + w for w in work]
        kind = rng.choice(["p2p", "p2p", "wrong_order", "MPI_Barrier", "MPI_Allreduce", "MPI_Bcast", "MPI_Reduce"])
        if kind == "p2p":
            for a, c in ((0, 1), (2, 3)) if step % 2 else ((1, 0), (3, 2)):
                both = max(arrive[a], arrive[c])
                b[a].mpi_send(arrive[a], both + 20 * US, dst=c, tag=step, nbytes=64)
                b[c].mpi_recv(arrive[c], both + 25 * US, src=a, tag=step, nbytes=64)
        elif kind == "wrong_order":
            for a, c in ((0, 1), (2, 3)):
                b[a].mpi_send(arrive[a], arrive[a] + 5 * US, dst=c, tag=1, nbytes=8)
                b[a].mpi_send(arrive[a] + 6 * US, arrive[a] + 11 * US, dst=c, tag=2, nbytes=8)
                second = max(arrive[c], arrive[a] + 6 * US) + 3 * US
                b[c].mpi_recv(arrive[c], second, src=a, tag=2, nbytes=8)
                b[c].mpi_recv(second + 1 * US, second + 4 * US, src=a, tag=1, nbytes=8)
        else:
            last = max(arrive)
            for r in range(4):
                b[r].collective(
                    kind,
                    arrive[r],
                    last + (r + 1) * 7 * US,
                    sent=8,
                    received=8,
                    root=0 if kind in ("MPI_Bcast", "MPI_Reduce") else None,
                )
        t += 2000 * US
    for context in with_main:
        context.__exit__(None, None, None)
    return b


@pytest.fixture(scope="module")
def random_db(tmp_path_factory):
    scratch = tmp_path_factory.mktemp("hierarchy")
    db = scratch / "random.cosydb"
    load(random_run(7).write(scratch / "random"), db)
    return db


#: Scalasca splits critical_imbalance_impact into inter_partition_imbalance and the difference
#: intra_partition_imbalance = impact - inter (remapping.spec), which is negative where the
#: inter-partition part exceeds the impact (lulesh: -0.41 s in Scalasca's own cube): there the
#: part is larger than its parent by definition.
NOT_A_PART = {"inter_partition_imbalance"}


def parent_violations(db) -> tuple[int, list]:
    """Every time-valued row of ``property_results`` (threshold 0: all rows) whose value
    exceeds its parent's at the same place: the parent's row there, else its row for all
    locations (a location's part of a whole), else the sum of its rows below (a function:
    over its call paths; all locations: over the locations); a category's rows are its
    ``severity_cube`` totals. Returns the number of rows compared and the violations."""
    run(db, threshold=0.0)
    entries = catalog.load()
    con = database.connect(db)
    try:
        rows = con.execute("""
            SELECT property AS name, callpath_id, region, location_id, value FROM property_results
            WHERE status = 'evaluated' AND unit = 's' AND value IS NOT NULL
            UNION ALL
            SELECT metric, callpath_id, NULL, location_id, inclusive FROM severity_cube WHERE unit = 's'
            UNION ALL
            SELECT metric, callpath_id, NULL, NULL, sum(inclusive) FROM severity_cube WHERE unit = 's' GROUP BY ALL
        """).fetchall()
        region_of = dict(
            con.execute(
                "SELECT c.callpath_id, g.name FROM callpaths c JOIN regions g USING (experiment_id, region_id)"
            ).fetchall()
        )
    finally:
        con.close()
    exact, below = {}, {}
    for name, callpath, region, location, value in rows:
        key = (name, callpath, region if callpath is None else None)
        exact[(*key, location)] = value
        if callpath is not None:  # the function as a whole holds its call paths
            below.setdefault((name, None, region_of[callpath], location), []).append(value)
        if location is not None:  # all locations hold each location
            below.setdefault((*key, None), []).append(value)

    def parent_value(parent, callpath, region, location) -> float:
        key = (parent, callpath, region if callpath is None else None)
        for candidate in ((*key, location), (*key, None)):
            if candidate in exact:
                return exact[candidate]
        for candidate in ((*key, location), (*key, None)):
            if candidate in below:
                return sum(below[candidate])
        return 0.0

    compared, violations = 0, []
    for name, callpath, region, location, value in rows:
        prop = entries.get(name)
        if prop is None or prop.parent is None or entries[prop.parent].unit != "s" or name in NOT_A_PART:
            continue
        compared += 1
        bound = parent_value(prop.parent, callpath, region, location)
        if value > bound + 1e-9 * max(1.0, abs(bound)):
            violations.append((name, prop.parent, callpath, region, location, value, bound))
    return compared, violations


def test_a_child_is_part_of_its_parent_on_a_random_run(random_db):
    compared, violations = parent_violations(random_db)
    assert compared > 200
    assert violations == []


def test_a_child_is_part_of_its_parent_on_hybrid_lulesh(real_db):
    compared, violations = parent_violations(real_db("lulesh_hyb-8x2-small"))
    assert compared > 1000
    assert violations == []


def test_every_scalasca_metric_sits_under_its_scalasca_parent():
    """The hierarchy of docs/wait-states.md: wait states under the time category of the
    calls they happen in."""
    entries = catalog.load()
    expected = {
        "mpi_latesender": "mpi_point2point",
        "mpi_latereceiver": "mpi_point2point",
        "mpi_latesender_wo": "mpi_latesender",
        "mpi_barrier_wait": "mpi_sync_collective",
        "mpi_wait_nxn": "mpi_collective",
        "mpi_init_completion": "mpi_init_exit",
        "omp_ibarrier_wait": "omp_ibarrier",
        "omp_fork": "omp_management",
        "mpi_point2point": "mpi_communication",
        "mpi_communication": "mpi",
        "mpi": "execution",
        "execution": "time",
    }
    assert {name: entries[name].parent for name in expected} == expected
    assert all(entries[name].kind == "category" for name in ("time", "mpi", "mpi_point2point", "comp"))
