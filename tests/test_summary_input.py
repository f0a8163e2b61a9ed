"""ASL summary input (docs/summary-input.md): loading and validating it, and the ASL OpenMP
(Appendix E) and HPF (Appendix D) catalogs over it, with a sequential baseline.

The documents are written here by hand; every expected value is worked out in the
comments from their numbers, with cases where a condition holds, fails and sits exactly
on its threshold.
"""

import json

import pytest
from conftest import assert_clean_failure, cosydb, evaluate, evaluated_rows, full_report

from cosydb import database
from cosydb.loading import load
from cosydb.report import run


def openmp_doc(processors=4, main=10.0, par=6.0, loop=5.0, serial=2.0):
    """The parallel run (4 threads) or, with processors=1, its sequential baseline (no thread sums)."""
    doc = {
        "cosydb_summary": 1,
        "paradigm": "openmp",
        "nr_processors": processors,
        "system": {"remote_access_time": 1e-6, "cache_line_size": 64, "parallel_region_cost": 1e-3},
        "regions": [
            {"name": "main", "kind": "Function"},
            {"name": "serial", "kind": "Function", "parent": "main"},
            {"name": "par", "kind": "PRegion", "parent": "main"},
            {"name": "loop", "kind": "PDo", "parent": "par"},
        ],
        "summaries": [
            {"region": "main", "nr_executions": 1, "sums": {"duration": main, "non_parallelized_code": 2.0}},
            {"region": "serial", "nr_executions": 1, "sums": {"duration": serial, "non_parallelized_code": 2.0}},
            {
                "region": "par",
                "nr_executions": 2,
                "sums": {
                    "duration": par,
                    "region_wait": 0.5,
                    "region_ctrl": 0.1,
                    "cross_thread_dep_wait": 0.2,
                    "cross_thread_dep_ctrl": 0.2,
                    "scheduling": 0.1,
                    "additional_calc": 0.1,
                    "nr_remote_accesses": 100000,
                },
                "instance_sums": [{"nr_threads": 4, "region_wait": 0.0}, {"nr_threads": 4, "region_wait": 0.5}],
            },
            {
                "region": "loop",
                "nr_executions": 2,
                "sums": {
                    "duration": loop,
                    "region_wait": 0.4,
                    "accessed_variables": [
                        {
                            "var_name": "x",
                            "nr_remote_accesses": 1000,
                            "size": 6400,
                            "page_sums": [
                                {"page_no": 0, "nr_remote_accesses": 600},
                                {"page_no": 1, "nr_remote_accesses": 400},
                            ],
                        },
                        {
                            "var_name": "y",
                            "nr_remote_accesses": 30,
                            "size": 6400,
                            "page_sums": [{"page_no": 0, "nr_remote_accesses": 30}],
                        },
                        {"var_name": "z", "nr_remote_accesses": 10, "size": 6400},
                    ],
                },
                "thread_sums": [
                    {
                        "thread_no": 1,
                        "accessed_variables": [
                            {
                                "var_name": "x",
                                "nr_remote_accesses": 600,
                                "page_sums": [{"page_no": 0, "nr_remote_accesses": 600}],
                            },
                            {
                                "var_name": "y",
                                "nr_remote_accesses": 20,
                                "page_sums": [{"page_no": 0, "nr_remote_accesses": 20}],
                            },
                        ],
                    },
                    {
                        "thread_no": 2,
                        "accessed_variables": [
                            {
                                "var_name": "y",
                                "nr_remote_accesses": 10,
                                "page_sums": [{"page_no": 0, "nr_remote_accesses": 10}],
                            }
                        ],
                    },
                ],
            },
        ],
    }
    if processors == 1:
        del doc["summaries"][3]["thread_sums"]
    return doc


def hpf_doc(processors=2, main=20.0, forall=10.0):
    """The parallel run (2 processes) or, with processors=1, its sequential baseline (no per-process sums)."""
    doc = {
        "cosydb_summary": 1,
        "paradigm": "hpf",
        "nr_processors": processors,
        "regions": [
            {"name": "main", "kind": "HPFProcedure", "decls": [{"name": "A", "format": "TRANSCRIPTIVE"}]},
            {"name": "fl", "kind": "HPFLoop", "ltype": "FORALL", "parent": "main"},
            {"name": "dl", "kind": "HPFLoop", "ltype": "DO", "parent": "main"},
            {"name": "rd", "kind": "HPFRedistribute", "parent": "main", "decls": [{"name": "A", "alloc": "DYNAMIC"}]},
            {"name": "single", "kind": "HPFBasicBlock", "parent": "main"},
        ],
        "summaries": [
            {
                "region": "main",
                "sums": {
                    "duration": main,
                    "comm_time": 2.0,
                    "sync_time": 1.0,
                    "io_time": 0.5,
                    "compiler_ovh_time": 0.5,
                    "impl_redistr_time": 0.6,
                },
            },
            {
                "region": "fl",
                "sums": {
                    "nr_executions": 10,
                    "duration": forall,
                    "comm_time": 1.0,
                    "sync_time": 1.0,
                    "compiler_ovh_time": 0.2,
                    "inspector_time": 0.4,
                },
                "proc_sums": [
                    {"process": 0, "duration": 10.0, "comm_time": 1.0, "sync_time": 1.0},
                    {"process": 1, "duration": 10.0, "comm_time": 1.0, "sync_time": 1.0, "idle_time": 1.0},
                ],
            },
            {"region": "dl", "sums": {"duration": 2.0, "sync_time": 0.5}},
            {"region": "rd", "sums": {"duration": 1.0, "expl_redistr_time": 0.8}},
            {
                "region": "single",
                "sums": {"duration": 1.0, "compiler_ovh_time": 0.3},
                "proc_sums": [{"process": 0, "duration": 1.0, "compiler_ovh_time": 0.3}],
            },
        ],
    }
    if processors == 1:
        for summary in doc["summaries"]:
            summary.pop("proc_sums", None)
    return doc


def loaded(tmp_path, *docs):
    """Load the documents (name, dict) into one database; returns its path."""
    db = tmp_path / "s.cosydb"
    for name, doc in docs:
        path = tmp_path / f"{name}.json"
        path.write_text(json.dumps(doc))
        load(path, db, name=name)
    return db


def report(db, **kw):
    """Run a report (the whole catalog, end to end) and keep every row it stored in
    property_results, also those whose condition fails (the report lists only the others)."""
    result = full_report(db, **kw)
    con = database.connect(db)
    try:
        stored = con.execute(
            "SELECT * FROM property_results WHERE experiment_id = ? AND status = 'evaluated'",
            [result["experiment"]["experiment_id"]],
        ).to_arrow_table()
    finally:
        con.close()
    result["stored"] = [
        r | dict(details=json.loads(r["details"]) if r["details"] else None) for r in stored.to_pylist()
    ]
    return result


def rows(result, prop):
    """{(call path, condition_id): row} of every evaluated row of one property, also those whose condition fails."""
    return {(r["callpath"], r["condition_id"]): r for r in evaluated_rows(result, prop, "stored")}


def holding(result, prop):
    return {k: r for k, r in rows(result, prop).items() if r["condition"]}


@pytest.fixture(scope="module")
def openmp(tmp_path_factory):
    return loaded(
        tmp_path_factory.mktemp("omp"),
        ("par", openmp_doc()),
        ("seq", openmp_doc(processors=1, main=30.0, par=20.0, loop=18.0)),
    )


def against_seq(db, *names, **kw):
    """Evaluate properties ``names`` on experiment par with its sequential baseline seq."""
    return evaluate(db, *names, experiment="par", baseline="seq", **kw)


def test_openmp_costs_against_the_sequential_run(openmp):
    result = report(openmp, experiment="par", baseline="seq")
    basis = 10.0  # duration of main, the root, on the master thread
    costs = holding(result, "openmp_costs")
    # duration(par) - duration(seq) / 4: main 10 - 7.5, par 6 - 5, loop 5 - 4.5, serial 2 - 0.5
    assert {k[0]: r["value"] for k, r in costs.items()} == pytest.approx(
        {"main": 2.5, "main/par": 1.0, "main/par/loop": 0.5, "main/serial": 1.5}
    )
    assert costs[("main", None)]["severity"] == pytest.approx(2.5 / basis)
    # measurable at par: sync 0.5+0.1+0.2+0.2 + remote 100000 x 1e-6 + scheduling 0.1 + additional 0.1 = 1.3
    assert holding(result, "openmp_measurable_costs")[("main/par", None)]["value"] == pytest.approx(1.3)
    unmeasured = rows(result, "openmp_unmeasurable_costs")
    assert not unmeasured[("main/par", None)]["condition"]  # 1.0 - 1.3 < 0
    main = unmeasured[("main", None)]  # 2.5 - 2.0 (non-parallelized code) > 0; severity total / basis
    assert main["condition"] and main["value"] == pytest.approx(0.5) and main["severity"] == pytest.approx(0.25)


def test_openmp_cost_properties_of_the_summary(openmp):
    result = against_seq(
        openmp,
        "openmp_synchronization",
        "openmp_load_imbalance",
        "openmp_non_parallelized_code",
        "openmp_remote_accesses",
        "openmp_parallel_organization",
    )
    assert {k[0]: r["value"] for k, r in holding(result, "openmp_synchronization").items()} == pytest.approx(
        {"main/par": 1.0, "main/par/loop": 0.4}
    )
    assert {k[0]: r["value"] for k, r in holding(result, "openmp_load_imbalance").items()} == pytest.approx(
        {"main/par": 0.5, "main/par/loop": 0.4}
    )
    assert {k[0]: r["value"] for k, r in holding(result, "openmp_non_parallelized_code").items()} == pytest.approx(
        {"main": 2.0, "main/serial": 2.0}
    )
    assert {k[0]: r["value"] for k, r in holding(result, "openmp_remote_accesses").items()} == pytest.approx(
        {"main/par": 0.1}
    )
    # a region without remote accesses in the input has none: cost 0 x 1e-6, severity 0 (as the
    # measurable costs read it), no problem
    loop = rows(result, "openmp_remote_accesses")[("main/par/loop", None)]
    assert (loop["condition"], loop["severity"], loop["value"]) == (False, 0.0, 0.0)
    # PRegion executed twice: 2 x parallel_region_cost 1e-3; the PDo too; Functions never
    organisation = holding(result, "openmp_parallel_organization")
    assert {k[0]: r["value"] for k, r in organisation.items()} == pytest.approx(
        {"main/par": 2e-3, "main/par/loop": 2e-3}
    )
    assert organisation[("main/par", None)]["severity"] == pytest.approx(2e-4)


def test_irregular_sync_sits_on_its_threshold(openmp):
    db, result = openmp, against_seq(openmp, "openmp_irregular_sync_across_instances")
    # instance syncs 0 and 0.5: stdev 0.25; threshold 0.5 x sync 1.0 / 2 executions = 0.25: not above
    row = rows(result, "openmp_irregular_sync_across_instances")[("main/par", None)]
    assert not row["condition"] and row["details"]["stdev_s"] == pytest.approx(0.25)
    lower = evaluate(
        db, "openmp_irregular_sync_across_instances", experiment="par", params={"p_irreg_behaviour_threshold": 0.4}
    )  # 0.2 < 0.25
    assert holding(lower, "openmp_irregular_sync_across_instances")[("main/par", None)]["value"] == pytest.approx(1.0)


def test_variable_properties(openmp):
    result = against_seq(
        openmp,
        "openmp_remote_access_to_variable",
        "openmp_multiple_transfer_of_same_data",
        "openmp_wrong_page_distribution_for_variable",
    )
    # remote accesses x 1e-6 s: x 1000, y 30, z 10 (condition_id: the variable)
    assert {k[1]: r["value"] for k, r in holding(result, "openmp_remote_access_to_variable").items()} == pytest.approx(
        {"x": 1e-3, "y": 3e-5, "z": 1e-5}
    )
    # lines = 6400 / 64 x 2 executions = 200: x 1000 x 4 > 200 (COND1, confidence 1), y 120 > 100 (COND2, 0.5),
    # z 40 neither
    transfer = {k[1]: r for k, r in rows(result, "openmp_multiple_transfer_of_same_data").items()}
    assert (transfer["COND1:x"]["condition"], transfer["COND1:x"]["confidence"]) == (True, 1.0)
    assert (transfer["COND2:y"]["condition"], transfer["COND2:y"]["confidence"]) == (True, 0.5)
    assert transfer["COND1:z"]["condition"] is False
    # page 0 of x: all 600 remote accesses by thread 1; y's page 0 split over threads 1 and 2
    pages = {k[1]: r for k, r in rows(result, "openmp_wrong_page_distribution_for_variable").items()}
    assert pages["x"]["condition"] and pages["x"]["confidence"] == 0.5 and not pages["y"]["condition"]


@pytest.fixture(scope="module")
def hpf(tmp_path_factory):
    return loaded(
        tmp_path_factory.mktemp("hpf"), ("par", hpf_doc()), ("seq", hpf_doc(processors=1, main=30.0, forall=16.0))
    )


def test_hpf_cost_properties(hpf):
    result = against_seq(
        hpf,
        "hpf_costs",
        "hpf_communication_costs",
        "hpf_forall_synchronization_costs",
        "hpf_inspector_costs",
        "hpf_io_costs",
        "hpf_parallel_organization_costs",
    )
    basis = 20.0
    # costs = comm + sync + compiler overhead + io: main 2 + 1 + 0.5 + 0.5; fl 1 + 1 + 0.2
    costs = holding(result, "hpf_costs")
    assert costs[("main", None)]["value"] == pytest.approx(4.0) and costs[("main", None)]["severity"] == pytest.approx(
        0.2
    )
    assert costs[("main/fl", None)]["value"] == pytest.approx(2.2)
    # communication: main 2, fl 1; dl, rd and single communicate nothing
    assert {k[0]: r["value"] for k, r in holding(result, "hpf_communication_costs").items()} == pytest.approx(
        {"main": 2.0, "main/fl": 1.0}
    )
    # a region the input gives no communication time communicates 0 s (as hpf_costs reads it):
    # severity 0 / 20, no problem (the report's cost / duration(RankBasis, e))
    quiet = rows(result, "hpf_communication_costs")[("main/dl", None)]
    assert (quiet["condition"], quiet["severity"], quiet["value"]) == (False, 0.0, 0.0)
    assert rows(result, "hpf_io_costs")[("main/fl", None)]["severity"] == 0.0
    assert rows(result, "hpf_inspector_costs")[("main", None)]["value"] == 0.0
    assert {k[0] for k in holding(result, "hpf_forall_synchronization_costs")} == {"main/fl"}  # not the DO loop
    assert holding(result, "hpf_inspector_costs")[("main/fl", None)]["severity"] == pytest.approx(0.4 / basis)
    assert {k[0] for k in holding(result, "hpf_io_costs")} == {"main"}
    # fl runs on 2 processes (compiler overhead 0.2), single on 1: no parallel organisation cost there
    organisation = rows(result, "hpf_parallel_organization_costs")
    assert organisation[("main/fl", None)]["condition"] and not organisation[("main/single", None)]["condition"]


def test_hpf_redist_costs_has_two_conditions(hpf):
    result = against_seq(hpf, "hpf_redist_costs")
    redist = holding(result, "hpf_redist_costs")
    # Cond1: procedure with a transcriptive declaration, implicit redistribution 0.6 (confidence 0.8);
    # Cond2: REDISTRIBUTE of a DYNAMIC array, explicit redistribution 0.8 (confidence 1.0)
    assert (redist[("main", "Cond1")]["confidence"], redist[("main", "Cond1")]["value"]) == (0.8, pytest.approx(0.6))
    assert (redist[("main/rd", "Cond2")]["confidence"], redist[("main/rd", "Cond2")]["value"]) == (
        1.0,
        pytest.approx(0.8),
    )


def test_hpf_properties_against_the_sequential_run(hpf):
    db, result = hpf, against_seq(hpf, "hpf_serialization_costs", "hpf_uneven_work_distribution")
    # par_comp of fl = 10 - 1 - 1 - 0.2 = 7.8, not above seq 16 x 0.5 = 8; above 16 x 0.45
    assert not rows(result, "hpf_serialization_costs")[("main/fl", None)]["condition"]
    lower = against_seq(db, "hpf_serialization_costs", params={"p_loop_serial_threshold": 0.45})
    assert holding(lower, "hpf_serialization_costs")[("main/fl", None)]["severity"] == pytest.approx(7.8 / 20)
    # opt = 16 / 2 processes = 8; computation 8 and 7: deviation 1, 1 / 8 = 0.125 > 0.1, not > 0.125
    uneven = holding(result, "hpf_uneven_work_distribution")[("main/fl", None)]
    assert uneven["severity"] == pytest.approx(10 / 20) and uneven["details"]["deviation_s"] == pytest.approx(1.0)
    on_threshold = against_seq(db, "hpf_uneven_work_distribution", params={"p_uneven_threshold": 0.125})
    assert not rows(on_threshold, "hpf_uneven_work_distribution")[("main/fl", None)]["condition"]
    # single: opt 1 / 1 process, computation 1 - 0.3: deviation 0.3 > 0.125
    assert rows(on_threshold, "hpf_uneven_work_distribution")[("main/single", None)]["condition"]


def test_without_baseline_or_data_the_status_says_why(tmp_path):
    db = loaded(tmp_path, ("par", hpf_doc()))
    status = {r["property"]: r["status"] for r in run(db, threshold=0)["results"]}
    assert (
        status["hpf_uneven_work_distribution"] == "not evaluable: needs a sequential baseline experiment (--baseline)"
    )
    assert (
        status["openmp_load_imbalance"]
        == "not evaluable: no OpenMP region summaries (ASL summary input) or OpenMP trace"
    )
    assert status["late_sender"] == "not evaluable: needs a trace"


def test_csv_input_gives_the_same_summaries(tmp_path):
    csv_text = (
        "paradigm,nr_processors,region,kind,parent,scope,number,nr_executions,nr_threads,duration,region_wait\n"
        "openmp,2,main,Function,,sums,,1,,10.0,\n"
        "openmp,2,par,PRegion,main,sums,,3,,6.0,0.5\n"
        "openmp,2,par,PRegion,main,thread,1,,,5.5,0.7\n"
    )
    (tmp_path / "s.csv").write_text(csv_text)
    load(tmp_path / "s.csv", tmp_path / "c.cosydb")
    result = evaluate(tmp_path / "c.cosydb", "openmp_load_imbalance")
    assert holding(result, "openmp_load_imbalance")[("main/par", None)]["severity"] == pytest.approx(0.05)


@pytest.mark.parametrize(
    "change, message",
    [
        (lambda d: d["summaries"][0]["sums"].update(durtion=1), "summaries[0].sums: unknown field 'durtion'"),
        (
            lambda d: d["summaries"][2]["sums"].update(duration="fast"),
            'summaries[2].sums.duration: expected a number, got "fast"',
        ),
        (
            lambda d: d["summaries"].append({"region": "nowhere", "sums": {"duration": 1}}),
            "summaries[4].region: region 'nowhere' is not defined in regions",
        ),
        (
            lambda d: d["regions"][1].update(parent="nobody"),
            "regions[1].parent: region 'nobody' is not defined in regions",
        ),
        (lambda d: d["regions"][2].update(kind="Parallel"), "regions[2].kind: 'Parallel' is not one of"),
        (lambda d: d.update(paradigm="mpi"), "paradigm: 'mpi' is not one of openmp, hpf"),
        (
            lambda d: d["summaries"][3]["thread_sums"][0].update(thread_no=9),
            "summaries[3].thread_sums[0].thread_no: thread 9 but nr_processors is 4",
        ),
        (lambda d: d.pop("regions"), "document: missing field 'regions'"),
    ],
)
def test_bad_summary_input_is_one_line_and_writes_nothing(tmp_path, change, message):
    doc = openmp_doc()
    change(doc)
    (tmp_path / "bad.json").write_text(json.dumps(doc))
    result = cosydb("load", tmp_path / "bad.json", "--db", tmp_path / "x.cosydb")
    assert_clean_failure(result, f"bad.json: {message}")
    assert not (tmp_path / "x.cosydb").exists()


@pytest.mark.parametrize(
    "text, message",
    [
        ("paradigm,region,kind,duraton\nopenmp,main,Function,1\n", "header: unknown column 'duraton'"),
        (
            "paradigm,region,kind,duration\nopenmp,main,Function,slow\n",
            "line 2, column duration: expected a number, got 'slow'",
        ),
        ("{not json", "not valid JSON"),
    ],
)
def test_bad_csv_and_json_text(tmp_path, text, message):
    path = tmp_path / ("bad.csv" if text.startswith("paradigm") else "bad.json")
    path.write_text(text)
    assert_clean_failure(cosydb("load", path, "--db", tmp_path / "x.cosydb"), message)
    assert not (tmp_path / "x.cosydb").exists()
