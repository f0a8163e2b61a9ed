"""Scalasca's fixed-size time maps (src/scout/fixed_map.hh, fixed_priority_map), which
p_time_map_entries asks for, against sequences and timings whose results are worked out by
hand from Scalasca's rules: a key held adds its time; a new key is held while there is room,
else it replaces the smallest time held (the lowest key among equal times) when that is
smaller than its own time, else it is dropped."""

import duckdb
import pytest
from conftest import NS, evaluate, property_rows
from cosydb.fixtures.generator import TraceBuilder

from cosydb import catalog, templating
from cosydb.loading import load


def entries_list(entries: list[tuple[int, float]]) -> str:
    """The SQL list of one-entry maps fixed_priority_map takes."""
    return "[" + ", ".join(f"{{'ks': [{k}], 'vs': [{v}::double]}}" for k, v in entries) + "]"


def fill(entries: list[tuple[int, float]], capacity: int) -> dict[int, float]:
    """The map fixed_priority_map leaves after inserting ``entries`` (key, time) in order."""
    macro = templating.render(
        "{% import 'templates/scalasca.sql' as scalasca %}{{ scalasca.fixed_priority_map('entries') }}",
        "test",
        templating.environment([catalog.builtin_dir()]),
    )
    (held,) = duckdb.execute(
        f"select {macro} from (select {entries_list(entries)} as entries)", {"p_time_map_entries": capacity}
    ).fetchone()
    return dict(zip(held["ks"], held["vs"], strict=True))


#: Insertions (key, time) into a map of 2 entries, and what it holds, worked out by hand.
HAND_WORKED = [
    ([(5, 1.0), (3, 2.0), (5, 0.5)], {5: 1.5, 3: 2.0}),  # room: held, then added to
    ([(1, 1.0), (2, 3.0), (3, 2.0)], {2: 3.0, 3: 2.0}),  # full: 2.0 replaces the smallest, 1.0
    ([(1, 1.0), (2, 3.0), (3, 0.5)], {1: 1.0, 2: 3.0}),  # full: 0.5 is not larger, dropped
    ([(1, 1.0), (2, 3.0), (3, 1.0)], {1: 1.0, 2: 3.0}),  # equal to the smallest: dropped
    ([(2, 1.0), (1, 1.0), (3, 1.5)], {2: 1.0, 3: 1.5}),  # a tie: the lower key goes
    ([(1, 1.0), (2, 3.0), (3, 2.0), (1, 5.0)], {2: 3.0, 1: 5.0}),  # back without its 1.0
]


@pytest.mark.parametrize(("entries", "held"), HAND_WORKED)
def test_fixed_priority_map_keeps_what_scalascas_map_keeps(entries, held):
    assert fill(entries, capacity=2) == pytest.approx(held)


@pytest.fixture(scope="module")
def three_works(tmp_path_factory):
    """One rank: prog/main calls MPI_Init (0..10), a (10..40), b (40..60), c (60..100) and
    MPI_Finalize (100..110); loaded once."""
    b = TraceBuilder(1)
    with b[0].open("main", 0, 110):
        b[0].region("MPI_Init", 0, 10)
        b[0].region("a", 10, 40)
        b[0].region("b", 40, 60)
        b[0].region("c", 60, 100)
        b[0].region("MPI_Finalize", 100, 110)
    folder = tmp_path_factory.mktemp("three_works")
    load(b.write(folder / "run"), folder / "run.cosydb")
    return folder / "run.cosydb"


def test_a_full_time_map_drops_the_call_paths_scalasca_drops(three_works):
    """The rank's critical path is its run up to MPI_Finalize (MPI_Init 10, a 30, b 20,
    c 40 ns). Its whole-run time map is filled chunk after chunk (a chunk ends at each
    synchronisation point: the Leaves of MPI_Init and MPI_Finalize), each chunk's call paths
    in PEARL's order (first Enter: prog, main, MPI_Init, a, b, c, MPI_Finalize):
    [prog 0, main 0] [main 0, MPI_Init 10, a 30, b 20, c 40] [prog 0, main 0, MPI_Finalize 10].
    Every call path kept, MPI_Finalize's 10 ns are off the path. A map of 3: prog, main and
    MPI_Init fill it; a replaces prog (0, the lower key of the two smallest), b main (0), c
    MPI_Init (10); prog, main and MPI_Finalize are then no larger than b's 20 and dropped:
    a 30, b 20, c 40, and the rank did no MPI_Init and no MPI_Finalize as far as the map knows."""
    activities = ("critical_path_activities", "non_critical_path_activities")
    exact = evaluate(three_works, *activities)
    assert property_rows(exact, "critical_path_activities", all_processes=False) == {
        ("prog/main/MPI_Init", 0): pytest.approx(10 * NS),
        ("prog/main/a", 0): pytest.approx(30 * NS),
        ("prog/main/b", 0): pytest.approx(20 * NS),
        ("prog/main/c", 0): pytest.approx(40 * NS),
    }
    assert property_rows(exact, "non_critical_path_activities", all_processes=False) == {
        ("prog/main/MPI_Finalize", 0): pytest.approx(10 * NS)
    }
    capped = evaluate(three_works, *activities, "critical_path", params={"p_time_map_entries": 3})
    assert property_rows(capped, "critical_path_activities", all_processes=False) == {
        ("prog/main/a", 0): pytest.approx(30 * NS),
        ("prog/main/b", 0): pytest.approx(20 * NS),
        ("prog/main/c", 0): pytest.approx(40 * NS),
    }
    assert property_rows(capped, "non_critical_path_activities", all_processes=False) == {}
    # the path's one segment, from MPI_Init to MPI_Finalize, is the middle chunk: a map of 3
    # keeps a, b and c of it
    assert property_rows(capped, "critical_path", all_processes=False) == {
        ("prog/main/a", 0): pytest.approx(30 * NS),
        ("prog/main/b", 0): pytest.approx(20 * NS),
        ("prog/main/c", 0): pytest.approx(40 * NS),
    }
