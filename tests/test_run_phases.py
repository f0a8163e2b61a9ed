"""The run's phases (issue 39, item 8): the share of the run in MPI_Init and MPI_Finalize, and
the region of the main work that the report suggests as the rank basis instead."""

import html
import re

import pytest
from conftest import evaluate, real_trace
from cosydb.fixtures.generator import TraceBuilder
from scalasca_reference import csv_cells
from test_problem_list import scalasca_total

from cosydb import names, report_html, report_view
from cosydb.loading import load
from cosydb.report import run

PHASES = ("location_time", "init_finalize_time", "main_work_time")


def two_rank_run():
    """2 ranks (ns): main 0..10000 on both; MPI_Init 0..3000 / 0..4000; solve 3000..9000 /
    4000..9500 holding work and a message; MPI_Finalize 9000..9800 / 9500..9900. Time of the
    run 20000; in the phases 3000 + 800 + 4000 + 400 = 8200; solve 6000 + 5500 = 11500 of
    the other 11800."""
    b = TraceBuilder(2)
    for r, (init, done, end) in enumerate(((3000, 9000, 9800), (4000, 9500, 9900))):
        with b[r].open("main", 0, 10_000):
            b[r].region("MPI_Init", 0, init)
            with b[r].open("solve", init, done):
                b[r].region("work", init + 100, init + 1000)
                if r == 0:
                    b[r].mpi_send(init + 1100, init + 1200, dst=1, tag=0, nbytes=8)
                else:
                    b[r].mpi_recv(init + 1100, init + 1300, src=0, tag=0, nbytes=8)
            b[r].region("MPI_Finalize", done, end)
    return b


def threads_run():
    """1 rank, 2 threads (ns): the master's main 0..10000 with MPI_Init_thread 100..1000 and a
    parallel region; the worker idles through MPI_Init_thread, so it counts 900 ns there too."""
    b = TraceBuilder(1, threads=2)
    master = b[0]
    with master.open("main", 0, 10_000):
        master.region("MPI_Init_thread", 100, 1000)
        master.fork(2000, 2)
        for t in (0, 1):
            thread = b.thread(0, t)
            thread.team_begin(2100)
            with thread.open("!$omp parallel @x.c:1", 2200, 6000):
                thread.region("work", 2300, 5900)
            thread.team_end(6100)
        master.join(6500)
    return b


@pytest.fixture(scope="module")
def two_ranks(tmp_path_factory):
    path = tmp_path_factory.mktemp("phases")
    load(two_rank_run().write(path / "run"), path / "run.cosydb")
    return path / "run.cosydb"


def test_the_phases_and_the_main_work_by_hand(two_ranks):
    result = evaluate(two_ranks, *PHASES)
    [phases] = result["phases"]
    assert phases["time_s"] == pytest.approx(20_000e-9)
    assert phases["init_finalize_s"] == pytest.approx(8_200e-9)
    assert phases["init_finalize_share"] == pytest.approx(0.41)
    assert [(p["callpath"], p["value_s"]) for p in phases["phases"]] == [
        ("prog/main/MPI_Init", pytest.approx(7_000e-9)),
        ("prog/main/MPI_Finalize", pytest.approx(1_200e-9)),
    ]
    assert phases["main_region"] == "solve"
    assert phases["main_region_s"] == pytest.approx(11_500e-9)
    assert phases["main_region_share"] == pytest.approx(11_500 / 11_800)
    assert phases["main_region_suggested"]


def test_a_worker_thread_counts_the_initialisation_it_idles_through(tmp_path):
    db = tmp_path / "omp.cosydb"
    load(threads_run().write(tmp_path / "run"), db)
    rows = evaluate(db, "init_finalize_time")["stored"]
    assert {r["thread"]: r["value"] for r in rows if r["location_id"] is not None} == {
        0: pytest.approx(900e-9),
        1: pytest.approx(900e-9),
    }
    [total] = [r for r in rows if r["location_id"] is None]
    assert total["value"] == pytest.approx(1_800e-9)
    assert total["severity"] == pytest.approx(1_800 / 20_000)


def test_the_report_says_so_and_gives_the_command(two_ranks):
    result = run(two_ranks)
    lines = report_view.problems(result, width=120)
    assert lines[1].startswith("run phases: MPI_Init, MPI_Finalize take 41.0% of the run (8.2 µs")
    command = f"cosydb report {two_ranks} --rank-basis solve"
    assert "  " + command in lines
    # the command it gives: no phases in that rank basis, nothing more to say
    again = run(two_ranks, rank_basis="solve")
    assert again["phases"]["init_finalize_s"] == 0
    assert not any(line.startswith("run phases") for line in report_view.problems(again, width=120))


def test_no_suggestion_when_no_region_holds_most_of_the_rest(tmp_path):
    """main/MPI_Init 0..5000, then work 5000..7000 and other 7000..10000: neither holds 80 %."""
    b = TraceBuilder(1)
    with b[0].open("main", 0, 10_000):
        b[0].region("MPI_Init", 0, 5000)
        b[0].region("work", 5000, 7000)
        b[0].region("other", 7000, 10_000)
    load(b.write(tmp_path / "run"), tmp_path / "run.cosydb")
    result = run(tmp_path / "run.cosydb")
    assert result["phases"]["main_region"] == "other" and not result["phases"]["main_region_suggested"]
    assert result["phases"]["command"] == f"cosydb report {tmp_path / 'run.cosydb'} --rank-basis other"
    text = " ".join(report_view.problems(result, width=200))
    assert "no region holds 80% of the rest (the largest, other, holds 60.0%)" in text


@pytest.mark.parametrize(
    "trace, main",
    [("hpccg-8-small", "HPCCG"), ("minife-8-small", "miniFE::driver"), ("lulesh_hyb-8x2-small", "LagrangeLeapFrog")],
)
def test_the_phases_are_scalascas_time_in_mpi_init_and_finalize(real_db, trace, main):
    """Against Scalasca's cube: the time (per location, threads included) at the call paths of
    MPI_Init(_thread) and MPI_Finalize, and in the subtree of the main region's call paths."""
    result = evaluate(real_db(trace), *PHASES)
    [phases] = result["phases"]
    cells = csv_cells(real_trace(trace))
    time = {(path, loc): v for (metric, path, loc), v in cells.items() if metric == "time"}
    leaf = {path: path.rsplit("/", 1)[-1] for path, _ in time}
    in_phases = sum(v for (path, _), v in time.items() if leaf[path] in {"MPI_Init", "MPI_Init_thread", "MPI_Finalize"})
    assert phases["init_finalize_s"] == pytest.approx(in_phases, rel=1e-5)
    assert phases["init_finalize_share"] == pytest.approx(in_phases / scalasca_total(trace, "time"), rel=1e-5)
    assert names.short(phases["main_region"]) == main and phases["main_region_suggested"]
    parts = [path.split("/") for path, _ in time]
    below = {"/".join(p) for p in parts if any(names.short(x) == main for x in p)}
    in_main = sum(v for (path, _), v in time.items() if path in below)
    assert phases["main_region_s"] == pytest.approx(in_main, rel=1e-5)


def test_the_page_offers_both_rankings(two_ranks, tmp_path):
    """The HTML page states the phases with the command, and ranks each time problem against
    the whole run and against the main work: value / 11500 ns of solve, as --rank-basis does."""
    result = run(two_ranks, cube=True)
    report_html.write_html(two_ranks, result, tmp_path / "r.html")
    page = html.unescape((tmp_path / "r.html").read_text())
    assert "run phases: MPI_Init, MPI_Finalize take 41.0% of the run" in page
    assert f"<code>cosydb report {two_ranks} --rank-basis solve</code>" in page
    shares = [float(v) for v in re.findall(r'class="num main-share" data-value="([^"]+)"', page)]
    times = [p for p in result["problems"] if p["unit"] == "s"]
    assert times and shares == pytest.approx([p["value"] / 11_500e-9 for p in times])
    ranked = run(two_ranks, rank_basis="solve")["problems"]
    assert {p["property"]: p["severity"] for p in ranked if p["unit"] == "s"} == pytest.approx(
        {p["property"]: p["value"] / 11_500e-9 for p in times}
    )
