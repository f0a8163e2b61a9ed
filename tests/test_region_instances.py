"""Region instances, enterptr and call paths against constructed timings."""

from types import SimpleNamespace as Node

import pytest
from conftest import load_built, rows
from cosydb.fixtures.generator import TraceBuilder
from cosydb.loaders.otf2_definitions import DefinitionError, _region_path


def nested_run():
    b = TraceBuilder(2)
    with b[0].open("main", 100, 1100):
        with b[0].open("solve", 200, 900):
            b[0].region("work", 210, 500)
            b[0].region("work", 520, 880)
        b[0].region("output", 950, 1000)
    with b[1].open("main", 100, 1200):
        with b[1].open("solve", 150, 1150):
            with b[1].open("work", 160, 1100):  # recursion: work inside work
                b[1].region("work", 170, 175)
    return b


def test_instances_match_constructed_times(tmp_path):
    b = nested_run()
    con = load_built(b, tmp_path)
    got = {
        (r["path"], r["rank"]): r
        for r in rows(
            con,
            """
            SELECT c.path, l.rank, count(*) AS visits,
                   sum(i.incl_s) AS incl_s, sum(i.excl_s) AS excl_s
            FROM region_instances i
            JOIN callpaths c USING (experiment_id, callpath_id)
            JOIN locations l USING (experiment_id, location_id)
            GROUP BY ALL""",
        )
    }
    expected = b.expected_paths()
    assert set(got) == set(expected)
    for key, exp in expected.items():
        assert got[key]["visits"] == exp["visits"], key
        assert got[key]["incl_s"] == pytest.approx(exp["incl_ticks"] * 1e-9, abs=1e-15), key
        assert got[key]["excl_s"] == pytest.approx(exp["excl_ticks"] * 1e-9, abs=1e-15), key
    # spot check by hand: solve on rank 0 runs 700 ticks, of which work takes 290 + 360
    assert got[("prog/main/solve", 0)]["excl_s"] == pytest.approx(50e-9)
    assert got[("prog/main/solve/work/work", 1)]["visits"] == 1


def test_callpath_tree(tmp_path):
    con = load_built(nested_run(), tmp_path)
    paths = {r["path"]: r for r in rows(con, "SELECT * FROM callpaths")}
    assert paths["prog"]["parent_id"] is None and paths["prog"]["depth"] == 1
    assert paths["prog/main/solve/work"]["parent_id"] == paths["prog/main/solve"]["callpath_id"]
    assert paths["prog/main/solve/work/work"]["depth"] == 5
    ids = [r["callpath_id"] for r in paths.values()]
    assert sorted(ids) == list(range(1, len(ids) + 1))
    # ancestor_ids and region_ids: the path's prefixes from the root down, itself last
    by_path = {path: r["callpath_id"] for path, r in paths.items()}
    for path, r in paths.items():
        names = path.split("/")
        assert r["ancestor_ids"] == [by_path["/".join(names[:k])] for k in range(1, len(names) + 1)], path
        assert r["region_ids"] == [paths["/".join(names[:k])]["region_id"] for k in range(1, len(names) + 1)], path
    pairs = rows(con, "SELECT * FROM callpath_ancestors")
    pairs = {(r["ancestor_id"], r["descendant_id"]): r["distance"] for r in pairs}
    expected = {
        (by_path[a], by_path[d]): d.count("/") - a.count("/")
        for d in paths
        for a in paths
        if (d + "/").startswith(a + "/")
    }
    assert pairs == expected and pairs[(by_path["prog"], by_path["prog/main/solve/work/work"])] == 4


def test_enterptr_follows_the_seed_definition(tmp_path):
    b = TraceBuilder(2)
    with b[0].open("main", 0, 100):
        b[0].mpi_send(10, 20, dst=1, tag=0, nbytes=4)
        b[0].region("work", 30, 40)
    with b[1].open("main", 0, 100):
        b[1].mpi_recv(5, 25, src=0, tag=0, nbytes=4)
    con = load_built(b, tmp_path)
    ev = rows(
        con,
        """
        SELECT e.seq, e.type, r.name, p.enterptr
        FROM enterptr p JOIN events e USING (experiment_id, location_id, seq)
        LEFT JOIN regions r ON r.experiment_id = e.experiment_id AND r.region_id = e.region_id
        WHERE e.location_id = 0 ORDER BY e.seq""",
    )
    by_seq = {e["seq"]: e for e in ev}
    seq_of = {(e["type"], e["name"]): e["seq"] for e in ev}
    program_begin = by_seq[1]
    assert program_begin["type"] == "PROGRAM_BEGIN" and program_begin["enterptr"] is None
    main_enter = seq_of[("ENTER", "main")]
    send_enter = seq_of[("ENTER", "MPI_Send")]
    assert by_seq[main_enter]["enterptr"] == 1  # Enter -> caller (program root)
    assert by_seq[send_enter]["enterptr"] == main_enter  # Enter -> caller
    assert by_seq[seq_of[("MPI_SEND", None)]]["enterptr"] == send_enter  # send -> enclosing call
    assert by_seq[seq_of[("LEAVE", "MPI_Send")]]["enterptr"] == send_enter  # Leave -> own Enter
    assert by_seq[seq_of[("ENTER", "work")]]["enterptr"] == main_enter  # after a sibling's Leave


def test_region_stack_macro(tmp_path):
    con = load_built(nested_run(), tmp_path)
    stack = rows(
        con,
        """
        SELECT r.name FROM region_stack(1, 0, (SELECT global_offset FROM experiments) + 300) s
        JOIN regions r USING (experiment_id, region_id) ORDER BY s.depth""",
    )
    assert [s["name"] for s in stack] == ["prog", "main", "solve", "work"]
    # at the Leave time of 'work' (500 ticks after offset 100 -> 400) the instance is no longer open
    left = rows(con, "SELECT count(*) AS n FROM region_stack(1, 0, (SELECT global_offset FROM experiments) + 400)")
    assert left[0]["n"] == 3


def test_enterptr_has_one_row_per_event_and_derived_tables_are_stored(tmp_path):
    con = load_built(nested_run(), tmp_path)
    counts = rows(
        con,
        """
        SELECT (SELECT count(*) FROM events) AS events,
               (SELECT count(*) FROM enterptr) AS pointers,
               (SELECT count(DISTINCT (location_id, seq)) FROM enterptr) AS distinct_events""",
    )[0]
    assert counts["pointers"] == counts["events"] == counts["distinct_events"]
    # derived tables are read from the experiment's Parquet files, not recomputed
    definition = con.execute("SELECT sql FROM duckdb_views() WHERE view_name = 'region_instances'").fetchone()[0]
    assert "region_instances-0.parquet" in definition  # one file per location partition
    assert (tmp_path / "run.cosydb" / "experiments" / "1" / "messages-0.parquet").is_file()  # one slice


def test_unbalanced_regions_pair_by_level_and_keep_their_callers(tmp_path):
    """Enter/Leave records as a broken trace may hold them, with the pairing and callers
    worked out by hand (ProgramBegin/End enter and leave the root 'prog')."""
    b = TraceBuilder(2)
    b[0].events += [(t, "enter" if kind == "E" else "leave", name) for t, kind, name in [
        (10, "E", "main"), (20, "E", "A"), (30, "E", "B"), (40, "L", "B"), (50, "E", "C"),
        (60, "L", "D"),  # leaves C under another name
        (70, "L", "A"), (80, "E", "E"), (90, "L", "E"), (100, "L", "main"),
        (110, "L", "main"),  # closes prog (level 1); ProgramEnd then closes nothing
    ]]  # fmt: skip
    b[1].events += [(10, "enter", "main"), (20, "enter", "F"), (30, "leave", "F"), (40, "enter", "G")]
    con = load_built(b, tmp_path)
    got = {
        (r["rank"], r["region"]): (r["depth"], r["caller"], r["leave_time"], r["leave_region"])
        for r in rows(
            con,
            """
            SELECT l.rank, r.name AS region, i.depth, cr.name AS caller, i.leave_time,
                   lr.name AS leave_region
            FROM instance_tree i
            JOIN locations l USING (experiment_id, location_id)
            JOIN regions r ON r.region_id = i.region_id
            LEFT JOIN instance_tree c
                ON c.location_id = i.location_id AND c.enter_seq = i.caller_seq
            LEFT JOIN regions cr ON cr.region_id = c.region_id
            LEFT JOIN regions lr ON lr.region_id = i.leave_region_id""",
        )
    }
    assert got == {
        (0, "prog"): (1, None, 110, "main"),
        (0, "main"): (2, "prog", 100, "main"),
        (0, "A"): (3, "main", 70, "A"),
        (0, "B"): (4, "A", 40, "B"),
        (0, "C"): (4, "A", 60, "D"),  # a later callee of A: its caller follows from B's
        (0, "E"): (3, "main", 90, "E"),
        (1, "prog"): (1, None, None, None),  # never left
        (1, "main"): (2, "prog", None, None),
        (1, "F"): (3, "main", 30, "F"),
        (1, "G"): (3, "main", 40, "prog"),  # closed by ProgramEnd
    }
    checks = {
        (r["location_id"], r["detail"]): r["count"]
        for r in rows(con, "SELECT * FROM load_warnings WHERE \"check\" = 'unbalanced_regions'")
    }
    ranks = {r["rank"]: r["location_id"] for r in rows(con, "SELECT rank, location_id FROM locations")}
    assert checks == {
        (ranks[0], "Leave of a region other than the innermost open one"): 2,  # C, prog
        (ranks[0], "Leave without a matching Enter"): 1,  # ProgramEnd
        (ranks[1], "region entered but never left"): 2,  # prog, main
        (ranks[1], "Leave of a region other than the innermost open one"): 1,  # G
    }


def test_a_callpath_definitions_regions_are_its_chain_from_the_root():
    """callpath_definitions.region_ids: the regions of the definition's parent chain, root
    first, whatever the order in which the definitions come (a child before its parent)."""

    def region(ref):
        return Node(_ref=ref)

    root = Node(_ref=0, parent=None, region=region(7))
    solve = Node(_ref=1, parent=root, region=region(3))
    work = Node(_ref=2, parent=solve, region=region(5))
    again = Node(_ref=3, parent=work, region=region(5))
    other = Node(_ref=4, parent=root, region=region(5))
    known = {}
    got = {n._ref: _region_path(n, known) for n in (again, other, root, work, solve)}
    assert got == {0: [7], 1: [7, 3], 2: [7, 3, 5], 3: [7, 3, 5, 5], 4: [7, 5]}
    # a corrupt archive whose parents come back round: an error, not an endless walk
    first = Node(_ref=5, parent=None, region=region(1))
    second = Node(_ref=6, parent=first, region=region(2))
    first.parent = second
    with pytest.raises(DefinitionError, match="callpath 6: its chain of parents is circular"):
        _region_path(second, known)
