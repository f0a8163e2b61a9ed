"""The default report a user reads: ranked problems that fit the terminal, on real traces and
constructed ones; the user errors and surprises of `cosydb report`."""

import csv
import json
from pathlib import Path

import pytest
from conftest import aggregate_places, copy_of, cosydb, real_trace
from cosydb.fixtures.generator import TraceBuilder

from cosydb import catalog as catalog_mod
from cosydb import database, names, report_view
from cosydb.loading import load
from cosydb.report import run

#: Scalasca's wait-state metrics, the candidates for "its top 3" (time categories such as
#: mpi_point2point or omp_time and counts are no wait states).
WAIT_STATES = {
    "mpi_latesender",
    "mpi_latereceiver",
    "mpi_lswo_different",
    "mpi_lswo_same",
    "mpi_latesender_wo",
    "mpi_wait_nxn",
    "mpi_nxn_completion",
    "mpi_barrier_wait",
    "mpi_barrier_completion",
    "mpi_earlyreduce",
    "mpi_earlyscan",
    "mpi_latebroadcast",
    "mpi_init_completion",
    "mpi_finalize_wait",
    "omp_idle_threads",
    "omp_management",
    "omp_fork",
    "omp_ibarrier_wait",
    "omp_ebarrier_wait",
    "omp_lock_contention_critical",
    "omp_lock_contention_api",
    "omp_limited_parallelism",
}


def scalasca_top3(trace):
    with open(next((real_trace(trace) / "scalasca").glob("*.totals.csv"))) as f:
        totals = {r["metric"]: float(r["total"]) for r in csv.DictReader(f) if r["metric"] in WAIT_STATES}
    # a metric and its part (mpi_latesender_wo of mpi_latesender) are one wait state
    return sorted(
        (m for m in totals if totals[m] > 0 and m not in {"mpi_latesender_wo", "mpi_lswo_different"}),
        key=lambda m: -totals[m],
    )[:3]


@pytest.mark.parametrize("trace", ["hpccg-8-small", "minife-8-small", "lulesh_hyb-8x2-small"])
def test_default_report_fits_120_columns_and_leads_with_scalascas_top_wait_states(real_db, trace):
    db = real_db(trace)
    result = run(db)
    lines = report_view.problems(result, width=120)
    assert not any("not evaluable" in line for line in lines)
    assert sum("properties need data this experiment lacks" in line for line in lines) == 1
    # the first five problems, with what they contain ("of which ...")
    shown = set()
    for entry in result["problems"][:5]:
        shown |= {entry["property"]} | {p["property"] for p in entry["parts"]}
    top3 = scalasca_top3(trace)
    assert len(top3) == 3 and set(top3) <= shown, (top3, shown)
    # the numbers are Scalasca's totals (all call paths summed)
    with open(next((real_trace(trace) / "scalasca").glob("*.totals.csv"))) as f:
        totals = {r["metric"]: float(r["total"]) for r in csv.DictReader(f)}
    for entry in result["problems"]:
        if entry["property"] in WAIT_STATES:
            assert entry["value"] == pytest.approx(totals[entry["property"]], rel=1e-3), entry["property"]
    # the bottleneck is a specific problem at a leaf, never an aggregate at the program root
    bottleneck = next(line for line in lines if line.startswith("bottleneck: "))
    assert bottleneck.startswith(f"bottleneck: {top3[0]}") or trace == "lulesh_hyb-8x2-small"
    assert result["problems"][0]["property"] not in {"total_cost", "comm_cost", "sync_cost"}
    assert_fitted(result, lines, 120, db)


def assert_fitted(result: dict, lines: list[str], width: int, db: Path) -> None:
    """Every line fits ``width`` (database ``db``'s path, which a suggested command keeps
    whole, counted as 'run.cosydb'); nothing is cut inside a word: an ellipsis only elides
    the middle of a call path ('root/…/leaf'), and every problem's line and the bottleneck
    end in its call path's leaf."""
    assert max(len(line.replace(str(db), "run.cosydb")) for line in lines) <= width
    for line in lines:
        assert all(line[i + 1 : i + 2] == "/" for i, ch in enumerate(line) if ch == names.ELLIPSIS), line
    for entry in result["problems"][:10]:  # its line, or the next one on a narrow terminal
        leaf = names.short(entry["place"].rsplit("/", 1)[-1])
        row = next(i for i, line in enumerate(lines) if f" {entry['property']} " in line)
        assert lines[row].endswith(leaf) or lines[row + 1].endswith(leaf), (lines[row], leaf)
    bottleneck = next(line for line in lines if line.startswith("bottleneck: "))
    assert bottleneck.endswith("/" + names.short(result["problems"][0]["place"].rsplit("/", 1)[-1]))


def test_the_otf_demo_report_fits_without_cutting_words(tmp_path):
    db = tmp_path / "demo.cosydb"
    load(Path(__file__).resolve().parents[1] / "fixtures" / "demo-otf" / "demo.otf", db)
    result = run(db)
    assert result["problems"], "the demo has wait states"
    for width in (120, 80):
        assert_fitted(result, report_view.problems(result, width=width), width, db)


def test_lulesh_bottleneck_is_the_idle_threads_in_mpi_init_thread(real_db):
    result = run(real_db("lulesh_hyb-8x2-small"))
    top = result["problems"][0]
    assert top["property"] == "omp_idle_threads"
    assert top["place"] == "lulesh2.0/main/MPI_Init_thread"
    assert top["places"][0]["value"] == pytest.approx(7.07, abs=0.01)
    assert all(x["thread"] == 1 for x in top["locations"])  # the idle threads are the team's thread 1


def test_the_problem_list_reads_no_rows_and_shows_what_a_whole_report_shows(real_db):
    """``run(..., rows=False)`` (the table without --tree) leaves out the rows listed and nothing
    else: every other part of the report is the whole report's, the problem list word for word."""
    db = real_db("hpccg-8-small")
    whole = run(db, threshold=0.0001)
    listed = run(db, threshold=0.0001, rows=False)
    assert whole["results"] and listed["results"] is None
    assert {k: v for k, v in listed.items() if k != "results"} == {k: v for k, v in whole.items() if k != "results"}
    assert report_view.problems(listed, 120) == report_view.problems(whole, 120)


def test_call_paths_are_demangled_and_elided_in_the_middle():
    path = (
        "test_HPCCG/main/_Z5HPCCGP24HPC_Sparse_Matrix_STRUCTPKdPdidRiRdS3_/"
        "_Z18exchange_externalsP24HPC_Sparse_Matrix_STRUCTPKd/MPI_Wait"
    )
    assert names.path(path) == "test_HPCCG/main/HPCCG/exchange_externals/MPI_Wait"
    assert names.fit(names.path(path), 40) == "test_HPCCG/…/exchange_externals/MPI_Wait"
    assert names.path(path, "raw") == path
    assert names.path("_Z5HPCCGP24HPC_Sparse_Matrix_STRUCTPKdPdidRiRdS3_ (all calls)") == "HPCCG (all calls)"
    assert names.demangle("_Z4ddotiPKdS0_PdRd") == "ddot(int, double const*, double const*, double*, double&)"
    assert (
        names.short("_ZN6miniFE10matvec_stdINS_9CSRMatrixIdiiEENS_6VectorIdiiEEEclERS2_RS4_S7_")
        == "miniFE::matvec_std::operator()"
    )
    assert names.short("!$omp parallel @lulesh.cc:2029") == "!$omp parallel @lulesh.cc:2029"


def late_sender_db(tmp_path):
    """4 ranks: rank 0 waits 300 ns for rank 1 (Late Sender), rank 2 for rank 3 100 ns, then a
    barrier that rank 3 enters 500 ns late."""
    b = TraceBuilder(4)
    for r in range(4):
        with b[r].open("main", 0, 3000):
            if r in (0, 2):
                b[r].mpi_recv(100, 500 if r == 0 else 300, src=r + 1, tag=0, nbytes=8)
            else:
                b[r].mpi_send(400 if r == 1 else 200, 450 if r == 1 else 250, dst=r - 1, tag=0, nbytes=8)
            b[r].collective("MPI_Barrier", 1000 if r < 3 else 1500, 1600)
    db = tmp_path / "run.cosydb"
    load(b.write(tmp_path / "run"), db)
    return db


def test_ranked_problems_by_hand(tmp_path):
    db = late_sender_db(tmp_path)
    result = run(db)
    by_name = {e["property"]: e for e in result["problems"]}
    # barrier wait: ranks 0-2 wait 500 ns for rank 3; Late Sender: 300 ns (rank 0) + 100 ns (rank 2)
    assert by_name["mpi_barrier_wait"]["value"] == pytest.approx(1500e-9)
    assert by_name["mpi_latesender"]["value"] == pytest.approx(400e-9)
    assert [(x["rank"], round(x["value"] * 1e9)) for x in by_name["mpi_latesender"]["locations"]] == [
        (0, 300),
        (2, 100),
    ]
    # severity: value / 4 x 3000 ns of run time
    assert by_name["mpi_latesender"]["severity"] == pytest.approx(400 / 12000)
    # the bottleneck: a wait state at the barrier (ASL's load imbalance or Scalasca's barrier wait)
    assert result["problems"][0]["property"] in {"mpi_barrier_wait", "load_imbalance_at_barrier"}
    assert result["bottleneck"].endswith(" at prog/main/MPI_Barrier")
    # the cost of the same call path is listed on the wait state's entry there, not as a problem
    # of its own: Scalasca's mpi_latesender, which names CRE's late_sender (a part of comm_cost)
    # and ASL's idle_late_sender, the same 400 ns measured twice more
    [host] = [e for e in result["problems"] if "comm_cost" in e["also"]]
    assert host["place"] == "prog/main/MPI_Recv" and host["property"] == "mpi_latesender"
    assert host["same"] == [
        dict(property="idle_late_sender", family="asl_mpi"),
        dict(property="late_sender", family="cre"),
    ]
    assert "comm_cost" in catalog_mod.ancestors(catalog_mod.load(), "late_sender")
    assert not {"idle_late_sender", "late_sender"} & set(by_name)
    assert "prog/main/MPI_Recv" not in {p["place"] for p in by_name.get("comm_cost", {"places": []})["places"]}
    # an aggregate counts at its deepest call paths only, never at the program root
    assert not aggregate_places(result) & {"prog", "prog/main"}
    # main's own time: 3000 less the calls, 2000, 2350, 2200, 2850 on ranks 0-3, average 2350
    main = next(p for p in by_name["imbalance"]["places"] if p["place"] == "prog/main")
    assert main["value"] == pytest.approx((350 + 0 + 150 + 500) * 1e-9)
    lines = report_view.problems(result, width=100)
    assert "mpi_barrier_wait" in "\n".join(lines) and "0, 2" in "\n".join(lines)
    bottleneck = next(line for line in lines if line.startswith("bottleneck: "))
    assert bottleneck.endswith("prog/main/MPI_Barrier") or ", ranks " in bottleneck


def test_report_of_one_property_keeps_the_other_stored_rows(tmp_path):
    db = late_sender_db(tmp_path)
    run(db)
    shown = cosydb("report", db, "--property", "mpi_latesender")
    assert shown.returncode == 0, shown.stderr
    assert "other properties are kept" in shown.stdout
    con = database.connect(db)
    stored = {p for (p,) in con.execute("SELECT DISTINCT property FROM property_results").fetchall()}
    assert {"mpi_latesender", "mpi_barrier_wait", "comm_cost"} <= stored


def test_profile_loaded_later_does_not_replace_the_trace_as_default(tmp_path, real_db):
    db = copy_of(real_db("scorep-barrier"), tmp_path)
    load(real_trace("scorep-barrier") / "profile.cubex", db)
    result = run(db)
    assert result["experiment"]["name"] == "scorep-barrier"
    assert result["experiment"]["other_experiments"] == [dict(name="scorep-barrier-profile", is_profile=True)]
    assert "also in this database: scorep-barrier-profile (profile)" in "\n".join(report_view.problems(result, 120))


def test_report_user_errors_are_one_line_with_close_matches(tmp_path):
    db = late_sender_db(tmp_path)
    cases = [
        (("--region", "mian"), "--region: 'mian' is unknown; did you mean main?"),
        (("--rank-basis", "MPI_Barier"), "did you mean MPI_Barrier"),
        (("--param", "p_regoin=x"), "--param: 'p_regoin' is unknown; did you mean p_region"),
        (("--property", "mpi_latesendr"), "did you mean mpi_latesender"),
        (("--property", "idle_time"), "idle_time is a pattern"),
    ]
    for args, message in cases:
        got = cosydb("report", db, *args)
        assert got.returncode == 2 and message in got.stderr and len(got.stderr.strip().splitlines()) == 1, got.stderr
        assert "Traceback" not in got.stderr


def test_a_pattern_is_queried_with_sql_ref(tmp_path):
    db = late_sender_db(tmp_path)
    got = cosydb(
        "sql", db, "SELECT round(sum(idle_s) * 1e9) AS ns FROM {{ ref('late_sender_matches') }}", "--format", "json"
    )
    assert got.returncode == 0, got.stderr
    assert json.loads(got.stdout) == [{"ns": 400.0}]


def test_demangled_region_is_accepted_for_region_options(real_db):
    result = run(real_db("hpccg-8-small"), region="ddot", properties=["late_sender"])
    assert result["experiment"]["region"] == "_Z4ddotiPKdS0_PdRd"


def test_of_equal_places_the_report_names_the_first_by_name(tmp_path):
    """Rank 0 waits 200 ns for rank 1 in zeta's MPI_Recv, then 200 ns in alpha's: a tie. The
    problem's place is alpha's (the first by name, as its places are listed), not whichever
    row an aggregate meets first, so that every run of the report names the same place."""
    b = TraceBuilder(2)
    with b[0].open("main", 0, 3000):
        with b[0].open("zeta", 100, 900):
            b[0].mpi_recv(200, 600, src=1, tag=0, nbytes=8)
        with b[0].open("alpha", 1000, 1800):
            b[0].mpi_recv(1100, 1500, src=1, tag=0, nbytes=8)
    with b[1].open("main", 0, 3000):
        b[1].mpi_send(400, 450, dst=0, tag=0, nbytes=8)
        b[1].mpi_send(1300, 1350, dst=0, tag=0, nbytes=8)
    db = tmp_path / "run.cosydb"
    load(b.write(tmp_path / "run"), db)
    entry = next(e for e in run(db, properties=["mpi_latesender"])["problems"] if e["property"] == "mpi_latesender")
    assert [(p["place"], round(p["value"] * 1e9)) for p in entry["places"]] == [
        ("prog/main/alpha/MPI_Recv", 200),
        ("prog/main/zeta/MPI_Recv", 200),
    ]
    assert entry["place"] == "prog/main/alpha/MPI_Recv"
