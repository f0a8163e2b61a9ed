"""One problem, one number (issue 39): a wait the catalog measures several ways is listed once,
and every time problem is ranked on one scale, the time of all locations in the rank basis."""

import csv
import itertools
import json
import re

import pytest
from conftest import SCALASCA_TRACES, cosydb, evaluate, real_trace
from scalasca_reference import csv_cells
from test_openmp import two_thread_run

from cosydb import catalog, database, evaluator, names, report_html, report_view
from cosydb.loading import load
from cosydb.report import run

DECLARED = {name: p.same_as for name, p in catalog.load().items() if p.same_as}


def scalasca_total(trace: str, metric: str) -> float:
    """Scalasca's total of ``metric`` over the run (the reference beside the trace)."""
    with open(next((real_trace(trace) / "scalasca").glob("*.totals.csv"))) as f:
        return next(float(r["total"]) for r in csv.DictReader(f) if r["metric"] == metric)


def test_the_catalog_declares_the_twins_of_the_late_sender_and_late_receiver():
    assert DECLARED == {
        "idle_late_sender": "mpi_latesender",
        "late_sender": "mpi_latesender",
        "idle_late_receiver": "mpi_latereceiver",
        "late_receiver": "mpi_latereceiver",
    }


def test_a_declared_twin_has_the_same_value_at_each_of_its_places(real_db):
    """A declaration cannot lie: on every shared trace, at every row of the declaring property
    that holds (per location and over all processes), the property it names has that value."""
    compared = dict.fromkeys(DECLARED, 0)
    for trace in SCALASCA_TRACES:
        result = evaluate(real_db(trace), *DECLARED, *set(DECLARED.values()))
        rows = {}
        for r in result["stored"]:
            rows.setdefault(r["property"], {})[(r["callpath_id"], r["location_id"], r["condition_id"])] = r
        for name, twin in DECLARED.items():
            for key, row in rows.get(name, {}).items():
                if row["condition"]:
                    assert rows[twin][key]["value"] == pytest.approx(row["value"], rel=1e-9), (trace, name, key)
                    compared[name] += 1
    assert all(compared.values()), compared  # every declaration met a row that holds


def test_location_time_counts_every_thread_as_scalasca_does(tmp_path):
    """1 rank, 2 threads (test_openmp's run: main 0..10000 ns on the master; the worker's own
    region work 1410..2990, the master's 1210..4990; finish 7000..9000 on the master only)."""
    db = tmp_path / "omp.cosydb"
    load(two_thread_run().write(tmp_path / "run"), db)
    con = database.connect(db)
    try:
        for basis, expected in ((None, 2 * 10_000), ("finish", 2 * 2_000), ("work", 3_780 + 1_580)):
            evaluation = evaluator.evaluate(con, catalog.load(), 1, {"p_rank_basis": basis}, ["location_time"])
            [(total,)] = evaluation.query(
                "SELECT value FROM {{ ref('location_time') }} WHERE location_id IS NULL"
            ).fetchall()
            assert total == pytest.approx(expected * 1e-9), basis
    finally:
        con.close()


@pytest.mark.parametrize("trace", SCALASCA_TRACES)
def test_location_time_is_scalascas_total_time(real_db, trace):
    result = evaluate(real_db(trace), "location_time")
    [total] = [r["value"] for r in result["stored"] if r["location_id"] is None]
    assert total == pytest.approx(scalasca_total(trace, "time"), rel=1e-5)


@pytest.fixture(scope="module")
def reported(real_db):
    """The report of a shared trace at threshold 0 (every problem listed), made once."""
    reports = {}

    def get(trace: str) -> dict:
        if trace not in reports:
            reports[trace] = run(real_db(trace), threshold=0.0, cube=True)
        return reports[trace]

    return get


@pytest.mark.parametrize("trace", ["hpccg-8-small", "minife-8-small", "lulesh_hyb-8x2-small", "scorep-late_sender"])
def test_one_entry_per_wait_and_one_scale_for_times(reported, trace):
    result = reported(trace)
    basis = scalasca_total(trace, "time")
    problems = result["problems"]
    for p in problems:
        if p["unit"] == "s":  # severity x basis = value, the property's own severity kept beside it
            assert p["severity"] * basis == pytest.approx(p["value"], rel=1e-5), p["property"]
            assert p["asl_severity"] is not None
    # no two entries list the same value at the same call path (a twin is named, not listed)
    for a, b in itertools.combinations(problems, 2):
        shared = {x["place"]: x["value"] for x in a["places"]}
        assert not any(
            y["place"] in shared and y["value"] == pytest.approx(shared[y["place"]], rel=1e-9) and y["value"] > 0
            for y in b["places"]
        ), (a["property"], b["property"])
    listed = {p["property"] for p in problems}
    assert not listed & set(DECLARED), listed & set(DECLARED)


def test_idle_threads_are_a_share_of_the_threads_time(reported):
    """lulesh_hyb-8x2-small: 7.43 s of idle threads is 43.8 % of the 16.95 s of its 16 threads
    (Scalasca's numbers), not 87.7 % of its 8 processes' time, which stays as asl_severity."""
    trace = "lulesh_hyb-8x2-small"
    [idle] = [p for p in reported(trace)["problems"] if p["property"] == "omp_idle_threads"]
    expected = scalasca_total(trace, "omp_idle_threads") / scalasca_total(trace, "time")
    assert idle["severity"] == pytest.approx(expected, rel=1e-5)
    assert round(100 * idle["severity"], 1) == 43.8
    assert idle["asl_severity"] == pytest.approx(2 * idle["severity"], rel=1e-3)


@pytest.mark.parametrize("trace", ["hpccg-8-small", "lulesh_hyb-8x2-small"])
def test_the_plotted_waits_of_a_rank_add_up_to_its_waiting(reported, real_db, trace):
    """The HTML page's stacked bars per rank (report_html.wait_bars) sum to what the rank waited
    by Scalasca's cube: the inclusive values of the wait-state metrics not below another one
    (a part, omp_fork of omp_management, is never stacked on its whole, nor a twin on its twin)."""
    cube = reported(trace)["cube"]
    waits = {name for name, p in catalog.load().items() if p.wait_state}
    cat = catalog.load()
    tops = {m for m in waits if not set(catalog.ancestors(cat, m)) & waits}
    theirs = {}
    for (metric, _, (rank, _)), value in csv_cells(real_trace(trace)).items():
        if metric in tops:
            theirs[rank] = theirs.get(rank, 0.0) + value
    con = database.connect(real_db(trace))
    try:
        ranks = dict(con.execute("SELECT location_id, rank FROM locations").fetchall())
    finally:
        con.close()
    bars = report_html.wait_bars(cube, ranks)
    ours = {}
    for metric, rank, value in bars:
        assert metric in waits and metric not in DECLARED
        ours[rank] = ours.get(rank, 0.0) + value
    assert set(ours) == {rank for rank, value in theirs.items() if value > 0}
    for rank, value in theirs.items():
        assert ours.get(rank, 0.0) == pytest.approx(value, rel=1e-4, abs=1e-9), rank


def test_the_page_shows_the_names_the_terminal_shows(reported, real_db, tmp_path):
    """LULESH's C++ regions: the HTML page names call paths demangled as the terminal does (the
    full signature on hover), never mangled; its ranks most affected are the terminal's."""
    trace = "lulesh_hyb-8x2-small"
    result = reported(trace)
    report_html.write_html(real_db(trace), result, tmp_path / "r.html")
    page = (tmp_path / "r.html").read_text()
    assert not re.search(r"_Z(N|\d)", page), re.search(r".{80}_Z(N|\d).{40}", page).group(0)
    assert "CalcForceForNodes" in page and "CalcForceForNodes(Domain&amp;)" in page
    assert "hpf_costs" not in page and "l2_cache_misses" not in page  # glossary: only what it can evaluate
    for p in result["problems"]:
        assert f'<td class="ranks">{report_view.locations_text(p["locations"])}</td>' in page


def test_json_and_csv_name_places_demangled_and_keep_the_recorded_names(real_db):
    """miniFE's C++ regions in ``--format json`` and ``csv``: every place, call path and region
    demangled, the name as recorded beside it (``mangled_<field>``); nothing else mangled."""
    db = real_db("minife-8-small")
    shown = json.loads(cosydb("report", db, "--format", "json").stdout)
    strings = []

    def walk(value, key=None):
        if isinstance(value, dict):
            for k, v in value.items():
                if k in names.NAMED_FIELDS and v is not None:
                    assert v == names.path(value[f"mangled_{k}"], "full"), (k, v)
                walk(v, k)
        elif isinstance(value, list):
            for item in value:
                walk(item, key)
        elif isinstance(value, str) and not (key or "").startswith("mangled_"):
            strings.append(value)

    walk(shown)
    assert not [s for s in strings if re.search(r"(^|/)_Z(N|\d)", s)][:3]
    recorded = {p["mangled_place"] for p in shown["problems"]}
    assert any(re.search(r"(^|/)_Z(N|\d)", p) for p in recorded)  # there were mangled names to show
    assert shown["bottleneck"] == f"{shown['problems'][0]['property']} at {shown['problems'][0]['place']}"
    rows = list(csv.DictReader(cosydb("report", db, "--format", "csv").stdout.splitlines()))
    assert rows and all(not re.search(r"(^|/)_Z(N|\d)", r["place"]) for r in rows)
    assert any(r["mangled_place"] != r["place"] for r in rows)


def test_the_cube_names_call_paths_demangled(real_db):
    """``cosydb cube`` on miniFE: the largest call path of each metric demangled in the table
    and in JSON (as recorded in ``mangled_top_callpath``)."""
    db = real_db("minife-8-small")
    table = cosydb("cube", db).stdout  # not a terminal: 120 columns
    assert "miniFE.x/…/MPI_Init" in table and not re.search(r"_Z(N|\d)", table)
    assert max(len(line.rstrip()) for line in table.splitlines()) <= 120
    metrics = json.loads(cosydb("cube", db, "--format", "json").stdout)["metrics"]
    assert any(m["mangled_top_callpath"] != m["top_callpath"] for m in metrics)
    assert all(m["top_callpath"] == names.path(m["mangled_top_callpath"], "full") for m in metrics if m["top_callpath"])


def test_the_timeline_names_regions_as_the_report_does(real_db, tmp_path):
    """LULESH in Perfetto: slices and call paths demangled (short, as the terminal), the full
    signature and the recorded (mangled) names kept in the slice's args."""
    from cosydb.perfetto import write_trace

    write_trace(real_db("lulesh_hyb-8x2-small"), tmp_path / "t.json", locations=["0:0"])  # rank 0's master
    events = json.loads((tmp_path / "t.json").read_text())["traceEvents"]
    slices = [e for e in events if e["ph"] == "X"]
    assert not [e for e in slices if re.search(r"_Z(N|\d)", e["name"] + e["args"]["callpath"])][:1]
    [force] = {e["args"]["mangled"] for e in slices if e["name"] == "CalcForceForNodes"}
    assert force.startswith("_Z") and names.demangle(force) == "CalcForceForNodes(Domain&)"
    assert all(e["args"]["region"] == names.demangle(e["args"]["mangled"]) for e in slices if "mangled" in e["args"])
