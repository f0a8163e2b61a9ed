"""CUBE4 export: the .cubex written by `cosydb export` read back with an independent reader
(pycubexr), every value compared with the database's severity_cube."""

import pytest
from conftest import copy_of, cosydb
from cosydb.fixtures.generator import TraceBuilder
from pycubexr import CubexParser

from cosydb import database, names
from cosydb.loading import load


def read_cubex(path, recorded):
    """{(metric, call path, (rank, thread)): value} of every non-zero value in the file, and the
    metric tree; call paths of the regions' names as the trace recorded them: ``recorded``
    maps a region's (name, mangled_name) in the file to that."""
    values, parents = {}, {}
    with CubexParser(path) as cube:
        every = {m.name: m for root in cube.get_metrics() for m in root.get_all_children()}
        for metric in every.values():
            parents.setdefault(metric.name, None)
            parents.update({child.name: metric.name for child in metric.childs})
        for metric in every.values():
            data = cube.get_metric_values(metric)
            paths = {}

            def walk(cnode, prefix):
                region = cube.get_region(cnode)
                paths[cnode.id] = prefix + recorded[(region.name, region.mangled_name)]
                for child in cnode.get_children():
                    walk(child, paths[cnode.id] + "/")

            for root in cube.get_root_cnodes():
                walk(root, "")
            # location names are "rank R thread T"
            where = [(int(n.split()[1]), int(n.split()[3])) for n in (x.name for x in cube.get_locations())]
            for cnode in cube.all_cnodes():
                for location, value in zip(where, data.cnode_values(cnode)):
                    if value:
                        values[(metric.name, paths[cnode.id], location)] = float(value)
    return values, parents


def stored_cube(db):
    con = database.connect(db)
    try:
        rows = con.execute("""
            SELECT s.metric, c.path, l.rank, l.thread, s.exclusive FROM severity_cube s
            JOIN callpaths c USING (experiment_id, callpath_id) JOIN locations l USING (experiment_id, location_id)
            WHERE s.exclusive <> 0""").fetchall()
        parents = dict(con.execute("SELECT DISTINCT metric, parent FROM severity_cube").fetchall())
    finally:
        con.close()
    return {(m, p, (r, t)): v for m, p, r, t, v in rows}, parents


# lulesh_hyb-8x2-small: thread locations (id thread << 32 | rank) map to dense Cube locations
@pytest.mark.parametrize("source", ["constructed", "scorep-collectives", "lulesh_hyb-8x2-small"])
def test_cubex_read_back_equals_the_database(tmp_path, real_db, source):
    if source == "constructed":
        b = TraceBuilder(3)
        for r, enter in enumerate((100, 300, 700)):
            with b[r].open("main", 0, 1000):
                b[r].collective("MPI_Barrier", enter, 800)
                b[r].mpi_send(850, 860, dst=(r + 1) % 3, tag=0, nbytes=8)
                b[r].mpi_recv(870 + 10 * r, 900, src=(r - 1) % 3, tag=0, nbytes=8)
        db = tmp_path / "run.cosydb"
        load(b.write(tmp_path / "run"), db)
    else:
        db = copy_of(real_db(source), tmp_path)
    written = cosydb("export", db, "--format", "cube", "-o", tmp_path / "run.cubex")
    assert written.returncode == 0, written.stderr
    ours, our_parents = stored_cube(db)
    con = database.connect(db)
    try:  # Score-P's convention: name demangled, mangled_name the canonical name
        recorded = {
            (names.demangle(n), c or n): n
            for n, c in con.execute("SELECT name, canonical_name FROM regions").fetchall()
        }
    finally:
        con.close()
    theirs, their_parents = read_cubex(tmp_path / "run.cubex", recorded)
    assert {m: their_parents[m] for m in our_parents} == our_parents  # the file also has the empty metrics
    assert ours and set(theirs) == set(ours)
    for key, value in ours.items():
        assert theirs[key] == pytest.approx(value, rel=1e-12), key
    shown = {name for name, _ in recorded}  # a person reads the names demangled
    assert not any(name.startswith("_Z") for name in shown)
    assert source != "lulesh_hyb-8x2-small" or "LagrangeLeapFrog(Domain&)" in shown


def test_export_errors(tmp_path):
    b = TraceBuilder(1)
    with b[0].open("main", 0, 10):
        pass
    load(b.write(tmp_path / "run"), tmp_path / "run.cosydb")
    missing = cosydb("export", tmp_path / "run.cosydb", "-o", tmp_path / "no" / "such" / "x.cubex")
    assert missing.returncode == 2 and "directory does not exist" in missing.stderr
    directory = cosydb("export", tmp_path / "run.cosydb", "-o", tmp_path)
    assert directory.returncode == 2 and f"{tmp_path}: is a directory" in directory.stderr
    fmt = cosydb("export", tmp_path / "run.cosydb", "--format", "otf2", "-o", tmp_path / "x")
    assert fmt.returncode == 2 and "--format" in fmt.stderr
    assert not list(tmp_path.glob("*.tmp")) and not (tmp_path / "x").exists()
