"""The severity cube against Scalasca 2.6 on every shared real trace: every (metric, call
path, location) cell of every metric cosydb defines (time hierarchy, visits, bytes, message
and synchronisation counts, every MPI and OpenMP wait state, the critical-path and
root-cause metrics), within 0.1 %, call paths compared exactly as Scalasca writes them.
cosydb's time maps are made Scalasca's (128 call paths, SCALASCA_TIME_MAPS); on the traces
where a location or interval holds more, the exact maps (the default) differ in small cells."""

from pathlib import Path

import pytest
from conftest import LARGE, SCALASCA_TRACES, TRACES, real_trace
from scalasca_reference import SCALASCA_TIME_MAPS, csv_cells, cube_cells, cube_comparison, disagreements, our_cells

from cosydb.loading import load


@pytest.mark.parametrize("trace", SCALASCA_TRACES)
def test_severity_cube_agrees_with_scalasca(real_db, trace):
    ours, metrics = our_cells(real_db(trace), SCALASCA_TIME_MAPS)
    theirs = {key: value for key, value in csv_cells(real_trace(trace)).items() if key[0] in metrics}
    # the reference is not trivially empty: it has time, visits and wait states on many call paths
    assert {"time", "visits", "comp", "mpi"} <= {key[0] for key in theirs}
    assert len({key[1] for key in theirs}) >= 8
    assert {"critical_path", "critical_path_activities", "performance_impact", "delay", "delay_mpi"} <= {
        key[0] for key in theirs
    }
    assert disagreements(ours, theirs) == []


def test_scout_cube_reader_reproduces_the_csv():
    """The reader used for the large trace (whose reference is only its scout cube) gives the
    CSV's values on a trace that has both."""
    folder = real_trace("hpccg-8-small")
    from_cube, measured = cube_cells(folder / "scalasca" / "scout.cubex")
    assert {"time", "visits", "mpi_latesender", "mpi_wait_nxn", "bytes_sent"} <= {key[0] for key in from_cube}
    from_csv = {key: value for key, value in csv_cells(folder).items() if key[0] in measured}
    assert disagreements(from_cube, from_csv, rel=1e-5) == []


@pytest.mark.large
def test_large_trace_agrees_with_scalascas_cube(real_db):
    """minife-16-large (5.9M events): every metric of Scalasca's own cube that cosydb defines.
    The cube holds what scout measures; derived metrics (comp, mpi, ...) are CubePL formulas
    computed by Scalasca's post-processing and are checked on the traces above."""
    cubex = real_trace(LARGE + ".tar.xz").parent / "minife-16-large.scout.cubex"
    if not cubex.exists():
        pytest.skip(f"{cubex} not present")
    ours, theirs, compared = cube_comparison(real_db(LARGE), cubex)
    assert {"time", "visits", "mpi_latesender", "mpi_latesender_wo", "mpi_wait_nxn"} <= {key[0] for key in theirs}
    assert len(compared) >= 25
    assert "critical_path" in compared
    assert disagreements(ours, theirs) == []


def test_a_constructed_run_of_27_ranks_agrees_with_scalascas_cube(tmp_path):
    """fixtures/halo-27 (27 ranks on two cores, a constructed halo exchange: no shared trace
    has its shape) against Scalasca's own cube of it: every cell of every metric both define."""
    folder = Path(__file__).resolve().parents[1] / "fixtures" / "halo-27"
    load(folder, tmp_path / "halo.cosydb")
    ours, theirs, compared = cube_comparison(tmp_path / "halo.cosydb", folder / "scout.cubex")
    assert len(compared) >= 25
    waits = {metric: sum(v for key, v in theirs.items() if key[0] == metric) for metric in compared}
    assert {"mpi_latesender", "mpi_wait_nxn", "delay_latesender", "critical_path"} <= {
        m for m, v in waits.items() if v > 0
    }
    assert {rank for (_, _, (rank, _)) in theirs} == set(range(27))
    assert disagreements(ours, theirs) == []


def test_every_shared_trace_with_a_reference_is_compared():
    folders = {p.parent.parent.name for p in TRACES.glob("*/scalasca/*.all.csv")}
    assert folders == set(SCALASCA_TRACES)
