"""The evaluator of the catalog: catalog validation, plug-ins, bound parameters, the DAG, stored results,
and the Scalasca-exact metrics on the real Score-P traces."""

import csv
import json
import math
import re

import pytest
from conftest import COLLECTIVE_METRICS, cosydb, evaluate, loaded_db, property_rows, real_trace
from cosydb.fixtures.generator import TraceBuilder

from cosydb import catalog, database, evaluator
from cosydb.errors import CosyError
from cosydb.loading import load
from cosydb.report import run

PLUGIN_PATTERN = """{#---
kind: pattern
parent: late_sender_matches
unit: s
columns: {callpath_id: BIGINT, location_id: BIGINT, recv_seq: BIGINT, recv_time: UBIGINT,
  send_location_id: BIGINT, send_seq: BIGINT, send_time: UBIGINT, send_callpath_id: BIGINT,
  comm_id: INTEGER, tag: BIGINT, recv_call: VARCHAR, recv_call_enter_seq: BIGINT,
  send_call: VARCHAR, recv_call_enter_time: UBIGINT, recv_call_leave_time: UBIGINT,
  send_call_enter_time: UBIGINT, send_call_leave_time: UBIGINT, ls_idle_s: DOUBLE,
  lr_idle_s: DOUBLE, calls_s: DOUBLE, idle_s: DOUBLE}
info: Late-sender matches whose receive lies inside region p_focus, from a plug-in.
description: late_sender_matches restricted by a region name given as a parameter.
diagnosis: None.
params:
  p_focus: {default: null, type: VARCHAR, doc: A region name.}
---#}
select m.*
from {{ ref('late_sender_matches') }} as m
join {{ ref('callpath_ancestors') }} as a on a.descendant_id = m.callpath_id
join {{ ref('callpaths') }} as c on c.callpath_id = a.ancestor_id
join {{ ref('regions') }} as r on r.region_id = c.region_id
where r.name = $p_focus
"""

PLUGIN_PROPERTY = """{#---
kind: property
parent: late_sender
unit: s
info: Late-sender time of receives inside one region, from a plug-in.
description: Sum of focused_late_sender_matches.
diagnosis: None.
---#}
{% import 'templates/asl.sql' as asl with context %}
{{ asl.sum_matches(ref('focused_late_sender_matches'), 'idle_s') }}
"""


def quoted_region_db(tmp_path):
    b = TraceBuilder(2)
    with b[0].open("main", 0, 1000):
        b[0].mpi_send(500, 520, dst=1, tag=0, nbytes=8)
    with b[1].open("main", 0, 1000):
        with b[1].open('it\'s "odd"; drop table x', 50, 700):
            b[1].mpi_recv(100, 600, src=0, tag=0, nbytes=8)
    load(b.write(tmp_path / "q"), tmp_path / "q.cosydb")
    return tmp_path / "q.cosydb"


def test_catalog_names_and_hierarchy():
    cat = catalog.load()
    for name in (
        "late_sender",
        "late_receiver",
        "wrong_order_ls",
        "wrong_order_lr",
        "messages_in_wrong_order",
        "mpi_latesender",
        "mpi_latereceiver",
        "total_cost",
        "comm_cost",
        "sync_cost",
        "io_cost",
    ):
        assert cat[name].kind == "property", name
    assert cat["wrong_order_ls"].parent == "late_sender" and cat["comm_cost"].parent == "total_cost"
    order = [p.name for p, _ in catalog.tree_order(cat)]
    assert (
        order.index("total_cost")
        < order.index("comm_cost")
        < order.index("late_sender")
        < order.index("wrong_order_ls")
    )


def test_plan_runs_each_pattern_once_general_first():
    cat = catalog.load()
    names = [item.prop.name for item in evaluator.plan(cat, database.object_names())]
    assert len(names) == len(set(names))
    for specific, general in (
        ("wrong_order_ls_matches", "late_sender_matches"),
        ("late_sender_matches", "receive_matches"),
        ("wrong_order_ls_matches", "wrong_order_matches"),
        ("late_sender", "late_sender_matches"),
    ):
        assert names.index(general) < names.index(specific)
    # a pattern evaluated on demand (a timeline) is left out of the whole catalog's evaluation,
    # and evaluated with what it reads when asked for
    on_demand = {name for name, p in cat.items() if p.on_demand}
    assert "mpi_latesender_timeline" in on_demand and not on_demand & set(names)
    asked = [item.prop.name for item in evaluator.plan(cat, database.object_names(), ["mpi_latesender_timeline"])]
    assert asked[-1] == "mpi_latesender_timeline" and "mpi_latesender_matches" in asked


def test_plugin_with_quoted_region_parameter(tmp_path):
    db = quoted_region_db(tmp_path)
    plugins = tmp_path / "my_props" / "local"
    plugins.mkdir(parents=True)
    (plugins / "focused_late_sender_matches.sql").write_text(PLUGIN_PATTERN)
    (plugins / "focused_late_sender.sql").write_text(PLUGIN_PROPERTY)
    region = 'it\'s "odd"; drop table x'
    result = run(
        db,
        threshold=0,
        properties=["focused_late_sender", "late_sender"],
        properties_dirs=[plugins.parent],
        params={"p_focus": region},
        region=region,
    )
    values = {(r["property"], r["callpath"]): r["value"] for r in result["results"] if r["rank"] is None}
    path = f"prog/main/{region}/MPI_Recv"
    assert values == {
        ("focused_late_sender", path): pytest.approx(400e-9),
        ("late_sender", path): pytest.approx(400e-9),
    }


SUMMED_MATCHES = """{#---
kind: property
parent: late_sender
unit: s
info: Constructed matches summed by asl.sum_matches.
description: Per rank the matches of its values below, at the first call path (prog).
diagnosis: None.
---#}
{% import 'templates/asl.sql' as asl with context %}
{{ asl.sum_matches('(select c.callpath_id, l.location_id, m.value_s from (values (0, 1e-19), (1, 0.0003), '
                   ~ '(1, 0.0003), (2, 0.0003), (2, -0.0003), (2, 1e-19), (3, 1e-10)) as m(rank, value_s) join '
                   ~ ref('locations') ~ ' as l using (rank) cross join (select min(callpath_id) as callpath_id from '
                   ~ ref('callpaths') ~ ') as c)', 'value_s') }}
"""


def test_summed_matches_of_rounding_residues_have_no_row(tmp_path):
    """A location whose matches sum to less than 1e-14 of the rank basis' time (4 ranks x
    10 ms here: 4e-16 s) has no row: that is what a sum of seconds leaves where the exact
    value is 0 (1e-19 s, on rank 0 alone and on rank 2 after matches that cancel). True
    values stay, also those below a tick of the clock (1 ms): 1e-10 s on rank 3."""
    b = TraceBuilder(4, timer_resolution=1000)
    for rank in range(4):
        b[rank].region("main", 0, 10)
    plugins = tmp_path / "props" / "local"
    plugins.mkdir(parents=True)
    (plugins / "summed_matches.sql").write_text(SUMMED_MATCHES)
    result = evaluate(loaded_db(b, tmp_path), "summed_matches", properties_dirs=[plugins.parent])
    assert property_rows(result, "summed_matches", all_processes=False) == {
        ("prog", 1): pytest.approx(0.0006),
        ("prog", 3): pytest.approx(1e-10),
    }
    assert property_rows(result, "summed_matches") == {"prog": pytest.approx(0.0006 + 1e-10)}


def test_refining_pattern_has_its_parents_columns_and_those_it_adds(tmp_path):
    """A pattern that refines another keeps its columns (CRE: Late Sender's matches are
    receive matches): without ``columns`` it has the parent's, ``added_columns`` follow them."""
    family = tmp_path / "props" / "x"
    family.mkdir(parents=True)
    header = "{{#---\nkind: pattern\nparent: {}\nunit: s\ninfo: i\ndescription: d\ndiagnosis: g\n{}---#}}\n"
    (family / "general.sql").write_text(header.format("null", "columns: {a: BIGINT, b: VARCHAR}\n") + "select 1, 'x'")
    (family / "wider.sql").write_text(header.format("general", "added_columns: {c: DOUBLE}\n") + "select 1, 'x', 2.0")
    (family / "narrower.sql").write_text(header.format("wider", "") + "select 1, 'x', 2.0")
    entries = catalog.load([tmp_path / "props"])
    assert entries["wider"].columns == {"a": "BIGINT", "b": "VARCHAR", "c": "DOUBLE"}
    assert entries["narrower"].columns == entries["wider"].columns
    (family / "general.sql").write_text(header.format("null", "") + "select 1")
    with pytest.raises(CosyError, match="general.sql: a pattern declares its output columns"):
        catalog.load([tmp_path / "props"])
    (family / "general.sql").write_text(header.format("narrower", "") + "select 1")
    with pytest.raises(CosyError, match="parent: chain is circular"):
        catalog.load([tmp_path / "props"])


def test_bad_property_files_are_reported_with_their_path(tmp_path):
    bad = tmp_path / "props" / "x"
    bad.mkdir(parents=True)
    (bad / "broken.sql").write_text(
        "{#---\nkind: property\nparent: nowhere\nunit: s\ninfo: i\ndescription: d\ndiagnosis: g\n---#}\nselect 1"
    )
    with pytest.raises(CosyError, match="parent 'nowhere' is not a property"):
        catalog.load([tmp_path / "props"])
    (bad / "broken.sql").write_text("select 1")
    with pytest.raises(CosyError, match="broken.sql: no .* YAML header"):
        catalog.load([tmp_path / "props"])
    (bad / "broken.sql").write_text(
        "{#---\nkind: property\nparent: null\nunit: minutes\ninfo: i\ndescription: d\ndiagnosis: g\n---#}\nselect 1"
    )
    with pytest.raises(CosyError, match="unit must be one of"):
        catalog.load([tmp_path / "props"])
    (bad / "broken.sql").write_text("{#---\nlike: broken\ninfo: i\n---#}\nselect 1")
    with pytest.raises(CosyError, match="broken.sql: like: chain is circular"):
        catalog.load([tmp_path / "props"])
    header = "{#---\nkind: property\nparent: null\nunit: s\ninfo: i\ndescription: d\ndiagnosis: g\n"
    (bad / "broken.sql").write_text(header + "sums: children\n---#}\nselect 1")
    with pytest.raises(CosyError, match="broken.sql: sums: children is for a category"):
        catalog.load([tmp_path / "props"])
    (bad / "broken.sql").write_text(header + "problem: true\n---#}\nselect 1")
    with pytest.raises(CosyError, match="broken.sql: problem: takes only false"):
        catalog.load([tmp_path / "props"])
    (bad / "broken.sql").write_text(header + "on_demand: true\n---#}\nselect 1")
    with pytest.raises(CosyError, match="broken.sql: on_demand: true is for a pattern"):
        catalog.load([tmp_path / "props"])
    (bad / "broken.sql").write_text(header + "timeline: mpi_latesender_matches\n---#}\nselect 1")
    with pytest.raises(CosyError, match="broken.sql: timeline: 'mpi_latesender_matches' is not a pattern of columns"):
        catalog.load([tmp_path / "props"])
    for wait in ("{class: latesender}", "{class: latesender, label: x, when: y}", "yes please", "{completion: false}"):
        (bad / "broken.sql").write_text(header + f"wait_state: {wait}\n---#}}\nselect 1")
        expected = r"broken.sql: wait_state: true, \{class: its delay class.*\{completion: true\}$"
        with pytest.raises(CosyError, match=expected):
            catalog.load([tmp_path / "props"])
    (bad / "broken.sql").unlink()
    for stem in ("it's", "2nd_sender", "late sender", "late-sender"):
        (bad / f"{stem}.sql").write_text(header + "---#}\nselect 1")
        with pytest.raises(CosyError, match=rf"{re.escape(stem)}.sql: '{re.escape(stem)}' is not an entry name"):
            catalog.load([tmp_path / "props"])
        (bad / f"{stem}.sql").unlink()


def test_like_takes_the_header_of_another_entry(tmp_path):
    plugins = tmp_path / "props"
    plugins.mkdir()
    (plugins / "l3_cache_misses.sql").write_text(
        "{#---\nlike: l2_cache_misses\ninfo: L3 misses.\n"
        "params:\n  p_counter: {default: PAPI_L3_TCM, counter: true, doc: The miss counter.}\n---#}\nselect 1"
    )
    entries = catalog.load([plugins])
    mine, base = entries["l3_cache_misses"], entries["l2_cache_misses"]
    assert (mine.info, mine.kind, mine.unit, mine.requires, mine.diagnosis) == (
        "L3 misses.",
        "property",
        "count",
        ["papi"],
        base.diagnosis,
    )
    assert mine.params["p_counter"]["default"] == "PAPI_L3_TCM"
    assert mine.params["p_load_counter"] == base.params["p_load_counter"]


def test_results_are_stored_and_queryable(tmp_path):
    db = quoted_region_db(tmp_path)
    run(db, threshold=0.05)
    con = database.connect(db)
    stored = con.execute("""
        SELECT property, callpath, rank, value, is_problem, threshold FROM property_results
        WHERE property = 'late_sender' ORDER BY rank NULLS FIRST""").fetchall()
    assert [(r[0], r[2], round(r[3] * 1e9), r[4], r[5]) for r in stored] == [
        ("late_sender", None, 400, True, 0.05),
        ("late_sender", 1, 400, True, 0.05),
    ]
    not_evaluable = dict(
        con.execute("SELECT property, status FROM property_results WHERE status <> 'evaluated'").fetchall()
    )
    # an MPI trace without counters, OpenMP, summary input or baseline: exactly the entries
    # needing those are not evaluable
    needs = {
        p.name
        for p in catalog.load().values()
        if p.kind == "property" and {"papi", "openmp", "openmp_summary", "hpf_summary", "baseline"} & set(p.requires)
    }
    assert needs and set(not_evaluable) == needs
    assert {v for k, v in not_evaluable.items() if k.startswith("l1_")} == {"not evaluable: no PAPI metrics"}
    assert not_evaluable["hpf_costs"] == "not evaluable: no HPF region summaries (ASL summary input)"


def test_report_cli_formats_and_errors(tmp_path):
    db = quoted_region_db(tmp_path)
    table = cosydb("report", db)
    assert table.returncode == 0 and "late_sender" in table.stdout and "bottleneck:" in table.stdout
    as_json = json.loads(cosydb("report", db, "--format", "json", "--property", "late_sender").stdout)
    assert set(as_json) == {
        "experiment",
        "bottleneck",
        "problems",
        "results",
        "critical_path",
        "root_causes",
        "not_evaluable",
        "phases",
        "warnings",
    }
    assert {r["property"] for r in as_json["results"]} == {"late_sender"}
    assert as_json["results"][0]["value"] == pytest.approx(400e-9) and as_json["results"][0]["unit"] == "s"
    rows = list(csv.DictReader(cosydb("report", db, "--format", "csv").stdout.splitlines()))
    assert {"property", "callpath", "severity", "value", "unit"} <= set(rows[0])
    missing = cosydb("report", db, "--rank-basis", "no_such_region")
    assert missing.returncode == 2 and "--rank-basis: 'no_such_region' is unknown" in missing.stderr
    unknown = cosydb("report", db, "--property", "nope")
    assert unknown.returncode == 2 and "--property: 'nope' is unknown" in unknown.stderr
    listing = cosydb("properties")
    assert listing.returncode == 0 and "wrong_order_ls" in listing.stdout
    # each entry with its family: three measures of the late sender, told apart
    families = {words[0]: words[1] for words in map(str.split, listing.stdout.splitlines()) if len(words) > 1}
    assert [families[n] for n in ("mpi_latesender", "late_sender", "idle_late_sender")] == [
        "scalasca",
        "cre",
        "asl_mpi",
    ]
    explained = cosydb("explain", "late_sender")
    assert explained.returncode == 0 and "from late_sender_matches" in explained.stdout


SCALASCA_METRICS = (
    [("scorep-late_sender", "mpi_latesender"), ("scorep-late_receiver", "mpi_latereceiver")]
    + [("scorep-collectives", metric) for metric in COLLECTIVE_METRICS]
    + [
        ("scorep-barrier", metric)
        for metric in ("mpi_barrier_wait", "mpi_barrier_completion", "mpi_init_completion", "mpi_finalize_wait")
    ]
    + [
        (trace, metric)
        for trace in ("hpccg-8-small", "minife-8-small")
        for metric in ("mpi_latesender", "mpi_latesender_wo", "mpi_lswo_different", "mpi_latereceiver")
    ]
    + [
        ("hpccg-8-small", metric)
        for metric in ("mpi_wait_nxn", "mpi_nxn_completion", "mpi_init_completion", "mpi_finalize_wait")
    ]
)


@pytest.mark.parametrize("trace, metric", SCALASCA_METRICS)
def test_scalasca_metrics_on_real_traces(real_db, trace, metric):
    folder = real_trace(trace)
    ours = property_rows(evaluate(real_db(trace), metric), metric, all_processes=False)
    with open(next((folder / "scalasca").glob("*.totals.csv"))) as f:
        total = next(float(r["total"]) for r in csv.DictReader(f) if r["metric"] == metric)
    with open(next((folder / "scalasca").glob("*.all.csv"))) as f:
        theirs = {
            (r["callpath"], int(r["rank"])): float(r["value"])
            for r in csv.DictReader(f)
            if r["metric"] == metric and float(r["value"]) > 0
        }
    assert total > 0
    assert sum(ours.values()) == pytest.approx(total, rel=1e-3)
    assert set(ours) == set(theirs)
    for key, value in theirs.items():
        assert ours[key] == pytest.approx(value, rel=1e-3), key


def test_property_without_its_data_is_reported_not_evaluable(tmp_path):
    db = quoted_region_db(tmp_path)  # a trace without PAPI metrics
    plugins = tmp_path / "props" / "cache"
    plugins.mkdir(parents=True)
    (plugins / "needs_counters.sql").write_text(
        "{#---\nkind: property\nparent: null\nunit: count\nrequires: [papi]\ninfo: i\n"
        "description: d\ndiagnosis: g\n---#}\nselect * from {{ ref('counter_summary') }}"
    )
    result = run(db, properties=["needs_counters"], properties_dirs=[plugins.parent])
    assert [(r["property"], r["status"], r["condition"], r["value"]) for r in result["results"]] == [
        ("needs_counters", "not evaluable: no PAPI metrics", None, None)
    ]
    con = database.connect(db)
    # the property asked for, and the report's denominator of times (location_time)
    assert con.execute("SELECT property, status FROM property_results WHERE location_id IS NULL").fetchall() == [
        ("location_time", "evaluated"),
        ("needs_counters", "not evaluable: no PAPI metrics"),
    ]


def test_report_errors_name_the_database(tmp_path):
    db = quoted_region_db(tmp_path)
    wrong = cosydb("report", db, "--experiment", "nope")
    assert wrong.returncode == 2 and str(db) in wrong.stderr and "no experiment 'nope'" in wrong.stderr
    no_dir = cosydb("report", db, "--properties-dir", tmp_path / "missing")
    assert no_dir.returncode == 2 and "missing: properties directory does not exist" in no_dir.stderr
    assert "Traceback" not in wrong.stderr + no_dir.stderr


def test_cube_command_shows_and_stores_the_severity_cube(tmp_path):
    b = TraceBuilder(3)
    for r, enter in enumerate((100, 300, 700)):
        with b[r].open("main", 0, 1000):
            b[r].collective("MPI_Barrier", enter, 800)
    load(b.write(tmp_path / "run"), tmp_path / "run.cosydb")
    shown = cosydb("cube", tmp_path / "run.cosydb", "--format", "json")
    assert shown.returncode == 0, shown.stderr
    metrics = {m["metric"]: m for m in json.loads(shown.stdout)["metrics"]}
    # barrier calls 700 + 500 + 100 ns, of which waiting for the last (B = 700) 600 + 400 + 0
    assert metrics["mpi_sync_collective"]["inclusive"] == pytest.approx(1300e-9)
    assert metrics["mpi_sync_collective"]["exclusive"] == pytest.approx(300e-9)
    assert metrics["mpi_barrier_wait"]["inclusive"] == pytest.approx(1000e-9)
    assert metrics["comp"]["inclusive"] == pytest.approx(1700e-9) and metrics["time"]["inclusive"] == pytest.approx(
        3000e-9
    )
    assert metrics["visits"]["inclusive"] == 9 and metrics["mpi_barrier_wait"]["depth"] == 5
    con = database.connect(tmp_path / "run.cosydb")
    stored = con.execute("""SELECT c.path, s.location_id, s.inclusive FROM severity_cube s
                            JOIN callpaths c USING (callpath_id) WHERE s.metric = 'mpi_barrier_wait'
                            ORDER BY s.location_id""").fetchall()
    assert [(p, loc, round(v * 1e9)) for p, loc, v in stored] == [
        ("prog/main/MPI_Barrier", 0, 600),
        ("prog/main/MPI_Barrier", 1, 400),
    ]


@pytest.mark.parametrize(
    "select, error",
    [
        ("select 1::bigint as callpath_id, 'x' as idle_s", "returns idle_s is VARCHAR, declared DOUBLE"),
        ("select 1::bigint as callpath_id", "returns columns callpath_id; it declares callpath_id, idle_s"),
        (
            "select 2.5 as idle_s, 1 as callpath_id",
            "returns columns idle_s, callpath_id; it declares callpath_id, idle_s",
        ),
    ],
)
def test_a_pattern_returns_the_columns_it_declares(real_db, tmp_path, select, error):
    plugins = tmp_path / "props" / "mine"
    plugins.mkdir(parents=True)
    (plugins / "my_pattern.sql").write_text(
        "{#---\nkind: pattern\nparent: null\nunit: s\ncolumns: {callpath_id: BIGINT, idle_s: DOUBLE}\n"
        f"info: i\ndescription: d\ndiagnosis: g\n---#}}\n{select}"
    )
    con = database.connect(real_db("scorep-late_sender"))
    try:
        with pytest.raises(CosyError, match=f"my_pattern.sql: {re.escape(error)}$"):
            evaluator.evaluate(con, catalog.load([plugins.parent]), 1, {}, ["my_pattern"])
        # integers of any width, NULL columns and decimals are accepted for their family
        (plugins / "my_pattern.sql").write_text(
            "{#---\nkind: pattern\nparent: null\nunit: s\ncolumns: {callpath_id: BIGINT, idle_s: DOUBLE}\n"
            "info: i\ndescription: d\ndiagnosis: g\n---#}\nselect sum(1::bigint) as callpath_id, 2.5 as idle_s"
        )
        assert evaluator.evaluate(con, catalog.load([plugins.parent]), 1, {}, ["my_pattern"]).evaluated("my_pattern")
    finally:
        con.close()


def test_a_pattern_without_declared_columns_is_refused(tmp_path):
    plugins = tmp_path / "props" / "mine"
    plugins.mkdir(parents=True)
    (plugins / "bare.sql").write_text(
        "{#---\nkind: pattern\nparent: null\nunit: s\ninfo: i\ndescription: d\ndiagnosis: g\n---#}\nselect 1 as x"
    )
    with pytest.raises(CosyError, match="bare.sql: a pattern declares its output columns"):
        catalog.load([plugins.parent])


def test_released_patterns_change_no_result(tmp_path):
    """A report drops a pattern's rows once nothing later reads them (keep_patterns): the
    results are those of an evaluation that keeps everything, and the kept pattern stays."""
    db = quoted_region_db(tmp_path)
    con = database.connect(db)
    try:
        columns = ["property", "callpath_id", "location_id", "status", "value", "severity"]

        def results(evaluation):
            return sorted(evaluation.results(0.0, None).select(columns).to_pylist(), key=repr)

        kept = evaluator.evaluate(con, catalog.load(), 1)
        everything = results(kept)
        assert kept.rows("late_sender_matches").num_rows > 0
        lean = evaluator.evaluate(con, catalog.load(), 1, keep_patterns={"time_cube"})
        assert results(lean) == everything
        assert lean.rows("time_cube").num_rows > 0
        with pytest.raises(Exception, match="prop_late_sender_matches"):
            lean.rows("late_sender_matches")
    finally:
        con.close()


def test_entries_side_by_side_give_the_rows_of_one_at_a_time(real_db, monkeypatch):
    """On a database's connection, entries whose inputs are ready are evaluated side by side
    on its cursors (two with DuckDB's two threads), their rows in tables that every cursor
    sees: each entry's status and rows on a real MPI run are those of the evaluation one
    entry at a time, floating-point values to within 1e-9 of each other (DuckDB's parallel
    sums of seconds differ in their last bits from one evaluation to the next, one at a
    time too). The rows alike in both (``EXCEPT ALL``, most of them) are set aside first;
    the others are paired in order and compared within that tolerance."""

    def scalars(value) -> list:
        """A row's values in order, a JSON text's (its details) parsed."""
        if isinstance(value, str) and value[:1] in "{[":
            value = json.loads(value)
        if isinstance(value, dict):
            return [x for k in sorted(value) for x in [k, *scalars(value[k])]]
        if isinstance(value, list):
            return [x for v in value for x in scalars(v)]
        return [value]

    def same(a: list, b: list) -> bool:
        return len(a) == len(b) and all(
            math.isclose(x, y, rel_tol=1e-9, abs_tol=1e-15) if isinstance(x, float) else x == y for x, y in zip(a, b)
        )

    def in_order(rows) -> list:  # by the values that are not floating-point, then by those rounded
        flat = [scalars(row) for row in rows]
        return sorted(
            flat,
            key=lambda r: repr(
                [(v is None, v) for v in r if not isinstance(v, float)]
                + [round(v, 6) for v in r if isinstance(v, float)]
            ),
        )

    con = database.connect(real_db("hpccg-8-small"))
    try:
        con.execute("SET threads = 2")

        def evaluated(at_once) -> dict:
            monkeypatch.setattr(evaluator, "AT_ONCE", at_once)
            with evaluator.DuckDBTables(con).workers(events=102_124) as workers:
                assert len(workers) == at_once
            with evaluator.DuckDBTables(con).workers(events=evaluator.SIDE_BY_SIDE_BELOW_EVENTS) as workers:
                assert len(workers) == 1  # a large trace's entries one at a time
            return evaluator.evaluate(con, catalog.load(), 1).status

        def only_in(ours: str, theirs: str) -> list:
            cursor = con.execute(f"SELECT * FROM {ours} EXCEPT ALL SELECT * FROM {theirs}")
            names = [d[0] for d in cursor.description]
            return [dict(zip(names, row)) for row in cursor.fetchall()]

        side_by_side = evaluated(2)
        rows = [name for name, status in side_by_side.items() if status == "evaluated"]
        (shared,) = con.execute(
            "SELECT count(*) FROM duckdb_tables() WHERE database_name = 'memory' AND table_name LIKE 'prop_%'"
        ).fetchone()
        assert shared == len(rows)  # every entry's rows where each cursor sees them
        for name in rows:  # kept aside: the next evaluation replaces them
            con.execute(f"CREATE TEMP TABLE first_{name} AS SELECT * FROM prop_{name}")
        one_at_a_time = evaluated(1)
        assert list(side_by_side) == list(one_at_a_time)  # in plan order
        assert side_by_side == one_at_a_time
        assert len(rows) > 100
        for name in rows:
            ours, theirs = f"first_{name}", f"prop_{name}"
            counts = con.execute(f"SELECT (SELECT count(*) FROM {ours}), (SELECT count(*) FROM {theirs})").fetchone()
            assert counts[0] == counts[1], name
            mine, others = (in_order(only_in(a, b)) for a, b in ((ours, theirs), (theirs, ours)))
            assert len(mine) == len(others) and all(same(a, b) for a, b in zip(mine, others)), name
    finally:
        con.close()


def test_side_by_side_the_first_failure_in_plan_order_is_raised(real_db, tmp_path):
    """Two entries evaluated at once both fail; the one that fails at once comes second in
    the plan, so its error is not the one raised: the first entry's is, as one at a time."""
    plugins = tmp_path / "props" / "failing"
    plugins.mkdir(parents=True)
    header = "{#---\nkind: property\nparent: null\nunit: s\ninfo: i\ndescription: d\ndiagnosis: g\n---#}\n"
    (plugins / "a_slow_failure.sql").write_text(
        header + "SELECT error('a failed') FROM (SELECT count(*) AS n FROM range(200000000)) WHERE n > 0"
    )
    (plugins / "b_quick_failure.sql").write_text(header + "SELECT error('b failed')")
    con = database.connect(real_db("scorep-late_sender"))
    try:
        con.execute("SET threads = 2")
        cat = catalog.load([plugins.parent])
        assert evaluator.planned(con, cat, 1, ["a_slow_failure", "b_quick_failure"]) == [
            "a_slow_failure",
            "b_quick_failure",
        ]
        with pytest.raises(CosyError, match=r"a_slow_failure.sql: evaluation failed: .*a failed"):
            evaluator.evaluate(con, cat, 1, {}, ["a_slow_failure", "b_quick_failure"])
    finally:
        con.close()


def test_report_decisions_side_by_side_are_those_made_one_at_a_time(real_db, monkeypatch):
    """The report's decisions (problems, rows, critical path, root causes, phases, what is not
    evaluable) made side by side on a database connection's cursors, each on one thread, are
    those made one after another, to the last bit."""
    from cosydb import report

    con = database.connect(real_db("hpccg-8-small"))
    try:
        con.execute("SET threads = 2")
        entries = catalog.load()
        results = evaluator.evaluate(con, entries, 1).results(0.001, None)
        side_by_side = report.decide(con, 1, results, report.catalog_table(entries))
        monkeypatch.setattr(database, "shares_tables", lambda _con: False)
        assert report.decide(con, 1, results, report.catalog_table(entries)) == side_by_side
        assert all(side_by_side[part] for part in report.DECISIONS)  # each part has rows here
    finally:
        con.close()
