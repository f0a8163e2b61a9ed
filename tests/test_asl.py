"""ASL itself: the parser and checker on the report's own text, malformed specifications,
and properties compiled from ASL against the hand-written catalog and constructed timings."""

import json
import re
import subprocess
from pathlib import Path

import pytest
from conftest import (
    SCALASCA_TRACES,
    TRACES,
    ConstructedRuns,
    cosydb,
    evaluated_rows,
    property_rows,
    run_name,
)
from cosydb.fixtures.generator import TraceBuilder
from test_properties_asl import END, barrier_run, cache_run, communication_run, master_slave_run
from test_wrong_order_forms import isend_waitall_run, one_waitall_run, sendrecv_and_test_run

from cosydb import catalog, database, evaluator
from cosydb.asl.compiler import check, checked, compile_text
from cosydb.asl.parser import AslError, parse
from cosydb.report import choose_experiment

SEED = TRACES.parent / "seeds" / "asl-knowledge-specification.txt"
NS = 1e-9


def seed_blocks(first: int, last: int) -> list[tuple[int, str]]:
    """The report's code blocks that start between lines first and last: (line of their
    first line, text)."""
    if not SEED.exists():
        pytest.skip(f"{SEED} not present")
    blocks, start, lines = [], None, []
    for number, line in enumerate(SEED.read_text().splitlines(), 1):
        if line.strip().startswith("```"):
            if start is None:
                start, lines = number + 1, []
            else:
                if first <= start <= last:
                    blocks.append((start, "\n".join(lines)))
                start = None
        elif start is not None:
            lines.append(line)
    return blocks


# The first syntax error of each code block of the report's sections 3.2 and 3.4.1 that is
# not valid ASL, by the report's line, as read from the report (not from the parser):
REPORT_SYNTAX_ERRORS = {
    790: "found 'm'",  # late_sender (figure 3.11): "SUM m.idle_time WHERE ..." without parentheses
    665: "expected one of ')', ',', ';', found '}'",  # PropertyOnAllProcesses: SEVERITY without ';'
    876: "found 'float'",  # ProcessProfiles's definition ends without ';' (line 874)
    1146: "expected ';', found ','",  # SlowSlaves: SEVERITY ends with ','
    1230: "found 'Region'",  # FrequentCommInProgress: no ',' between two parameters
    1249: "found '>'",  # OnAllProcesses: PROPERTY x(Region, ..., Region> without ')'
    1313: "expected one of ',', WHERE, found ')'",  # AllInstancesInProcess: max(...) without WHERE
    1339: "found '>'",  # SomeNotAllInstances: the missing ')' again
    1395: "expected one of ',', WHERE, found ')'",  # SomeNotAllProcesses: max(...) without WHERE
}


def test_the_reports_syntax_errors_are_found_where_they_are():
    found = {}
    # sections 3.2, 3.3.6 (the late sender PATTERN and its property) and 3.4.1
    blocks = seed_blocks(620, 680) + seed_blocks(760, 800) + seed_blocks(860, 1420)
    for start, text in blocks:
        try:
            parse(text, "report")
        except AslError as error:
            found[start + error.line - 1] = error.problem
    assert set(found) == set(REPORT_SYNTAX_ERRORS)
    for line, fragment in REPORT_SYNTAX_ERRORS.items():
        assert fragment in found[line], (line, found[line])
    # every other block of these sections parses: 23 of them, two the PATTERNs LateSender
    # and WrongOrder (a LET's last definition without ';' and type, as the report writes
    # Cost's, LoadImbalanceAtBarrier's "||" for OR, CostPerProcess's untyped RankBasis and
    # its body without '{' are read: docs/asl.md)
    assert len(blocks) - len(found) == 23


#: Section 3.2's examples, the global definitions and CacheCost, with what stops them from
#: parsing mended as properties/asl/mpi.asl reads it: report line -> (text, replacement).
MENDED = {
    664: ("e.processes)", "e.processes);"),
    874: ("!=ALLPROCESSES}", "!=ALLPROCESSES};"),
    1229: ("Process p", "Process p,"),  # FrequentCommInProgress: the ',' before Region RankBasis
    1249: ("Region>", "Region)>"),  # OnAllProcesses: the ')' of x's parameter types
    1257: ("RankBasis)))", "RankBasis)) WHERE p IN e.Processes)"),  # max(...) without WHERE
    1395: ("RankBasis)))", "RankBasis)) WHERE p IN e.Processes)"),  # the same in SomeNotAllProcesses
    1146: ("Duration(RankBasis,e),", "Duration(RankBasis,e);"),  # SlowSlaves: SEVERITY ends with ','
    1313: ("x(re)));", "x(re)) WHERE re IN AllRe);"),  # max(...) without WHERE
}
CACHES = ("L1D", "L1I", "L2")
CHECKED_LINES = [*range(866, 879), *range(626, 645), *range(656, 670), *range(936, 946), *range(949, 952)]
CHECKED_LINES += [*range(955, 958), *range(1229, 1239), *range(1248, 1259), 1264, *range(1379, 1397), 1402, 1403]
CHECKED_LINES += [*range(1053, 1062), *range(1073, 1083)]  # LateSender, LateReceiver
CHECKED_LINES += range(765, 780)  # the PATTERN LateSender (figure 3.10)
CHECKED_LINES += [*range(1137, 1148), *range(1158, 1170)]  # SlowSlaves, OverloadedMaster
CHECKED_LINES += [*range(1179, 1204), *range(1211, 1220)]  # WrongOrder, MessagesInWrongOrder
CHECKED_LINES += [*range(1274, 1291), *range(1300, 1322)]  # CacheCostPerInstance, AllInstancesInProcess
CHECKED_LINES += range(1113, 1127)  # LoadImbalanceAtBarrier, word for word


def test_the_reports_undefined_names_are_errors_with_their_lines(tmp_path):
    lines = SEED.read_text().splitlines() if SEED.exists() else pytest.skip(f"{SEED} not present")
    text = []
    for number in CHECKED_LINES:
        line = lines[number - 1]
        if number in MENDED:
            old, new = MENDED[number]
            assert old in line, number
            line = line.replace(old, new)
        text.append(line)
    path = tmp_path / "report.asl"
    path.write_text("\n".join(text))
    errors, readings = checked(path, path.read_text())
    problems = {(CHECKED_LINES[e.line - 1], e.problem) for e in errors}
    the_reports = {
        (657, "unknown class 'RankBasis'"),  # x(Region, Experiment, Process, RankBasis): Region
        (660, "class Experiment has no attribute 'processors'"),  # e.processors; e.processes below
        (668, "unknown property 'SynCostPerProcess' for template parameter x"),  # SyncCostPerProcess
        (1235, "class MPISummary has no attribute 'NumPasses'"),  # NrExecutions
        (1257, "class Experiment has no attribute 'NrProcessors'"),  # nr_processors (left out)
        (1264, "unknown property 'FrequentCommProcess' for template parameter x"),  # ...InProcess
        (1392, "expected a condition (boolean), found a float value"),  # confidence(...) without ==1
        (1395, "class Experiment has no attribute 'NrProcessors'"),
        (1402, "unknown property 'FrequentCommProcess' for template parameter x"),
        (1058, "unknown name 'MPI_Receive'"),  # unquoted, and no MPI function: the type Recv
        (1078, "unknown name 'MPI_SEND'"),  # the type Send
        (1079, "class FuncCall has no attribute 'Semantics'"),  # r.CalledFunc.semantics
        # ParadigmRole (Appendix C) has MasterRecv, SlaveRecv, SlaveSend
        (1143, "unknown name 'ReceiveMaster'"),
        (1162, "class Experiment has no attribute 'NrProcessors'"),
        (1165, "unknown name 'ReceiveSlave'"),
        (1165, "unknown name 'SendSlave'"),
        # WrongOrder: ROOT.Process and SendMsg.Process for process_id
        (1196, "class Receive has no attribute 'Process'"),
        (1197, "class Send has no attribute 'Process'"),
        (1197, "class Receive has no attribute 'Process'"),
        # AllInstancesInProcess: x(RegionExit); an Event of e.Trace has no Process or Region
        # (its Exits: typeof(re) == Exit); x(re) where x takes (Exit re, Region RankBasis)
        (1301, "unknown class 'RegionExit'"),
        (1304, "class Event has no attribute 'Process'"),
        (1305, "class Event has no attribute 'Region'"),
        *(
            (line, f"'{cache}CacheMissesPerInstance' takes 2 argument(s), given 1")
            for line in (1309, 1311, 1313)
            for cache in ("L1D", "L1I", "L2")
        ),
    }
    assert problems == the_reports  # and no other
    # what is read as the report writes it, not as its grammar does, each place said
    untyped = "has no type: read as {}, its expression's"
    spelled = "read as '{}', the name defined here in another spelling"
    unquoted = "unquoted {} read as the MPI function of that name (its name beside a String)"
    the_readings = {
        (628, "parameter 'RankBasis' without a type: read as 'Region RankBasis' (supplied_data.yaml)"),
        (629, "the body's opening '{' is missing: read as written"),  # CostPerProcess
        (658, "parameter 'RankBasis' without a type: read as 'Region RankBasis' (supplied_data.yaml)"),
        (943, f"'Cost' {spelled.format('Costs')}"),  # CacheCost defines Costs, its SEVERITY reads Cost
        *((line, f"'{cache}CacheCostFunc' {untyped.format('int')}") for line, cache in zip((949, 950, 951), CACHES)),
        (1079, f"'idle_time' {spelled.format('IdleTime')}"),  # LateReceiver's LET
        (774, unquoted.format("MPI_Recv")),  # the PATTERN LateSender: the region a call calls
        (774, "MPI_Recv compared with a call: with the function it calls"),
        (775, unquoted.format("MPI_Send")),
        (775, "MPI_Send compared with a call: with the function it calls"),
        (1201, f"'cost' {untyped.format('float')}"),  # WrongOrder's EXPORT
        (1281, f"'cost' {spelled.format('costs')}"),  # CacheCostPerInstance
        *((n, f"'{cache}CacheCostInstFunc' {untyped.format('int')}") for n, cache in zip((1284, 1285, 1286), CACHES)),
        (1119, unquoted.format("MPI_Barrier")),  # LoadImbalanceAtBarrier
        (1120, f"'max_wait' {spelled.format('MaxWait')}"),
        (1121, unquoted.format("MPI_Barrier")),
    }
    assert {(CHECKED_LINES[r.line - 1], r.how) for r in readings} == the_readings


def test_a_property_applied_to_an_object_of_another_class_is_an_error(tmp_path):
    path = tmp_path / "wrong.asl"
    path.write_text(
        "PROPERTY F(Function r, Experiment e) { CONDITION: 1 > 0; CONFIDENCE: 1; SEVERITY: 1; }\n"
        "PROPERTY G(FuncCall c, Experiment e) {\n"
        "  CONDITION: condition(F(c, e)); CONFIDENCE: 1; SEVERITY: 1; }\n"
    )
    assert [(e.line, e.problem) for e in check(path, path.read_text())] == [
        (3, "'F': its parameter r is a Function, given a FuncCall")
    ]


def test_an_attribute_of_several_values_is_compared_by_membership_only(tmp_path):
    """FuncCall.role and MPISummary.Role: a call path's roles on the processes."""
    path = tmp_path / "roles.asl"
    path.write_text(
        "PROPERTY F(FuncCall r, Experiment e, Process p) {\n"
        "  CONDITION: r.Role > MasterRecv; CONFIDENCE: 1; SEVERITY: 1; }\n"
        "PROPERTY G(FuncCall r, Experiment e, Process p) {\n"
        "  CONDITION: UNIQUE({s IN e.profile WITH s.region == r AND s.Proc == p}).Role == MasterRecv;\n"
        "  CONFIDENCE: 1; SEVERITY: 1; }\n"
    )
    assert [(e.line, e.problem) for e in check(path, path.read_text())] == [
        (2, "an attribute of several values compares with one value by == or != only"),
        (4, "MPISummary.Role has several values: read it of a context or set element"),
    ]


def test_a_property_of_an_event_has_no_other_context(tmp_path):
    path = tmp_path / "events.asl"
    path.write_text(
        "PROPERTY P(Exit re, Process p, Region RankBasis) { CONDITION: 1 > 0; CONFIDENCE: 1; SEVERITY: 1; }\n"
        "PROPERTY Q(Process p, Exit re, Region RankBasis) { CONDITION: 1 > 0; CONFIDENCE: 1; SEVERITY: 1; }\n"
    )
    assert [(e.line, e.problem) for e in check(path, path.read_text())] == [
        (1, "parameter p: a property of an event has no other context"),
        (2, "parameter re: a property of an event has no other context"),
    ]


def test_the_reports_cost_template_word_for_word_is_total_cost(tmp_path):
    """Section 3.4.1.2 as the report prints it (LET Cost = CostFunc(r,e) without type or ';',
    Summary and Duration from the prelude) compiles to the SQL of properties/asl/mpi.asl's
    TotalCost, which tests compare with the catalog's total_cost on every shared trace."""
    ((_, text),) = seed_blocks(889, 891)
    assert "LET\n    Cost = CostFunc(r,e)\nIN" in text
    path = tmp_path / "cost.asl"
    path.write_text(text)
    (ours,) = catalog.asl_entries(path).values()
    assert ours[1] == catalog.asl_entries(catalog.asl_specification("mpi"))["TotalCost"][1]


#: The report's templates and property as it prints them (report lines), which compile with
#: readings of what is not ASL (test_the_reports_undefined_names_are_errors_with_their_lines).
WORD_FOR_WORD = {
    "CostPerProcess": [(627, 643)],  # untyped RankBasis, no opening '{'
    "CacheCost": [(936, 945), (949, 951), (955, 957)],  # Cost for Costs, untyped cost functions
    "LoadImbalanceAtBarrier": [(1113, 1126)],  # max_wait for MaxWait, unquoted MPI_Barrier
}


def word_for_word(name: str, directory: Path) -> Path:
    lines = SEED.read_text().splitlines() if SEED.exists() else pytest.skip(f"{SEED} not present")
    path = directory / f"{name}.asl"
    path.write_text("\n".join(line for first, last in WORD_FOR_WORD[name] for line in lines[first - 1 : last]))
    return path


@pytest.mark.parametrize("template", ["CostPerProcess", "CacheCost"])
def test_the_reports_templates_word_for_word_are_mpi_asl_s(tmp_path, template):
    """CostPerProcess and CacheCost as the report prints them compile to the SQL of
    properties/asl/mpi.asl's properties of the same names (compared with the catalog's on
    the shared and constructed runs: assert_compiled_equal_hand_written, and by hand)."""
    path = word_for_word(template, tmp_path)
    ours = catalog.asl_entries(path)
    mpi = catalog.asl_entries(catalog.asl_specification("mpi"))
    assert len(ours) == 3 and all(sql == mpi[name][1] for name, (_, sql) in ours.items())
    (header, _), *_ = ours.values()
    assert "read as the ASL report writes them" in header["diagnosis"]
    checked_out = cosydb("asl", "check", path)  # each reading a line, and no problem
    lines = checked_out.stdout.splitlines()
    assert checked_out.returncode == 0 and lines[-1].startswith("1 file(s): no problems; ")
    assert lines[:-1] and all(line.startswith(f"{path}:") and " read as " in line for line in lines[:-1])


@pytest.mark.parametrize("trace", SCALASCA_TRACES)
def test_load_imbalance_at_barrier_word_for_word_is_the_catalogs(real_db, tmp_path, trace):
    """The report's LoadImbalanceAtBarrier, word for word (MPI_Barrier read as the function
    of that name, max_wait as MaxWait), has the rows of the catalog's
    load_imbalance_at_barrier on every shared trace: condition, confidence, severity, value."""
    entries = catalog.load([word_for_word("LoadImbalanceAtBarrier", tmp_path)])
    con = database.connect(real_db(trace))
    try:
        evaluation = evaluator.evaluate(con, entries, 1, None, ["LoadImbalanceAtBarrier", "load_imbalance_at_barrier"])
        ours, theirs = _rows(evaluation, "LoadImbalanceAtBarrier"), _rows(evaluation, "load_imbalance_at_barrier")
    finally:
        con.close()
    assert set(ours) == set(theirs)
    for key, row in theirs.items():
        assert all(_close(a, b) for a, b in zip(ours[key], row, strict=True)), (key, ours[key], row)
    # not only rows whose condition is false: the barriers of HPCCG and miniFE are balanced
    assert any(row[0] for row in theirs.values()) or trace in ("hpccg-8-small", "minife-8-small")


def test_a_file_uses_the_definitions_of_the_prelude_and_of_files_before_it(tmp_path):
    """``--asl mpi --asl mine.asl``: mine.asl calls mpi's CommCostFunc and the prelude's
    Duration, and may define a function of the prelude's again (its own is used)."""
    mine = tmp_path / "mine.asl"
    mine.write_text(
        "PROPERTY CommShare(Region r, Experiment e, Region RankBasis) {\n"
        "  CONDITION: CommCostFunc(r, e) > 0; CONFIDENCE: 1; SEVERITY: CommCostFunc(r, e) / Duration(RankBasis, e); }\n"
    )
    assert {(e.line, e.problem) for e in check(mine, mine.read_text())} == {(2, "unknown function 'CommCostFunc'")}
    mpi = catalog.asl_specification("mpi")
    entries = catalog.load([mpi, mine])
    assert "Duration" not in entries["CommShare"].body and "/" in entries["CommShare"].body
    assert check(mine, mine.read_text(), [(mpi, mpi.read_text())]) == []
    mine.write_text("float Duration(MPIRegion r, Experiment e) = 2;\n" + mine.read_text())
    assert check(mine, mine.read_text(), [(mpi, mpi.read_text())]) == []
    assert catalog.load([mpi, mine])["CommShare"].body != entries["CommShare"].body
    assert cosydb("asl", "check", mpi, mine).returncode == 0
    assert cosydb("asl", "check", mine).returncode == 1


def test_a_template_of_an_earlier_file_compiles_as_in_one_file(tmp_path):
    """mpi.asl's Cost template instantiated by a later file gives the entry the same text in
    one file gives: what the compiler reads of the template's text (its severity's unit: a
    share of Duration is in seconds) is read from the template's own file, not from the
    later file at the template's positions."""
    mpi = catalog.asl_specification("mpi")
    instance = (
        "float MyCostFunc(Region r, Experiment e) = Summary(r,e).SyncTime;\nPROPERTY Cost<MyCostFunc> MySyncCost;\n"
    )
    mine, together = tmp_path / "mine.asl", tmp_path / "together.asl"
    mine.write_text("// a file of its own: its text at the template's positions is this comment\n" * 40 + instance)
    together.write_text(mpi.read_text() + instance)
    (alone,), _ = compile_text(mine, mine.read_text(), [(mpi, mpi.read_text())])
    (in_one,) = [e for e in compile_text(together, together.read_text())[0] if e.name == "MySyncCost"]
    assert alone.unit == in_one.unit == "s"
    assert vars(alone) | {"line": 0} == vars(in_one) | {"line": 0}


def test_a_reading_is_said_by_the_file_it_is_in(tmp_path):
    """A template read as the report writes it (CacheCost, word for word: 'Cost' for its
    'Costs') and instantiated by a later file: the readings are the template file's, not the
    later one's, whose own text is strict ASL."""
    cache_cost = word_for_word("CacheCost", tmp_path)
    mine = tmp_path / "mine.asl"
    mine.write_text(
        "float MyCostFunc(Region r, Experiment e) = Summary(r,e).L2CacheMisses;\n"
        "PROPERTY CacheCost<MyCostFunc> MyCacheMisses;\n"
    )
    errors, readings = checked(mine, mine.read_text(), [(cache_cost, cache_cost.read_text())])
    assert errors == [] and readings == []
    _, theirs = checked(cache_cost, cache_cost.read_text())
    assert {r.how for r in theirs} >= {"'Cost' read as 'Costs', the name defined here in another spelling"}


def test_the_builtin_specification_has_no_problem():
    path = catalog.asl_specification("mpi")
    assert path == Path(catalog.builtin_dir()) / "asl" / "mpi.asl"
    assert check(path, path.read_text()) == []


MALFORMED = [
    "PROPERTY P(Region r) { CONDITION: 1 > 0; CONFIDENCE: 1; SEVERITY: 1 }",  # ';' missing
    "PROPERTY P(Region r) { CONFIDENCE: 1; SEVERITY: 1; }",  # no CONDITION
    "PROPERTY P(Region r, Basis) { CONDITION: 1 > 0; CONFIDENCE: 1; SEVERITY: 1; }",  # untyped: no parameter
    "PROPERTY P(Region r) { CONDITION: 1 > 0 | 2 > 1; CONFIDENCE: 1; SEVERITY: 1; }",
    "PROPERTY P(Region r) { CONDITION: (C1) 1 > 0; CONFIDENCE: MAX((C1) -> 1, ); SEVERITY: 1; }",
    "float f(Region r) = r.Incl;",  # Region has no Incl
    "PROPERTY P(Region r) { CONDITION: Nowhere > 0; CONFIDENCE: 1; SEVERITY: 1; }",
    "PROPERTY P(Region r) { CONDITION: Summary(r) > 0; CONFIDENCE: 1; SEVERITY: 1; }",  # unknown function
    "PROPERTY T<f> X;",  # unknown template
    "float f(Region r) = 1;\nPROPERTY P(Region r) { CONDITION: f(r, r) > 0; CONFIDENCE: 1; SEVERITY: 1; }",
    "PROPERTY P(Region r) { CONDITION: 1 + 1; CONFIDENCE: 1; SEVERITY: 1; }",  # not a condition
    "PROPERTY P(Region r) { CONDITION: 1 > 0; CONFIDENCE: r; SEVERITY: 1; }",  # not a number
    "PROPERTY P(Widget w) { CONDITION: 1 > 0; CONFIDENCE: 1; SEVERITY: 1; }",  # unknown class
    "PROPERTY P(Region r) { CONDITION: SUM(x WHERE x IN 3) > 0; CONFIDENCE: 1; SEVERITY: 1; }",
    "PROPERTY P(Region r) { CONDITION: r > 0; CONFIDENCE: 1; SEVERITY: 1; }",  # an object is no number
    "PROPERTY P(Region r) { CONDITION: (C1) 1 > 0; CONFIDENCE: (C2) -> 1; SEVERITY: 1; }",  # no C2
    "PROPERTY P(Region r) { CONDITION: 1 > 0; CONFIDENCE: 1; SEVERITY: 1; }\n"
    "PROPERTY P(Region r) { CONDITION: 1 > 0; CONFIDENCE: 1; SEVERITY: 1; }",  # twice
    'PROPERTY P(Region r) { CONDITION: "a > 0; CONFIDENCE: 1; SEVERITY: 1; }',  # open string
    "PROPERTY P(Region r) { CONDITION: UNIQUE(r) > 0; CONFIDENCE: 1; SEVERITY: 1; }",  # not a set
    "PROPERTY P(Region r) {",  # ends early
]


#: The MALFORMED checked by a ``cosydb`` process (the others by the same command in this one):
#: a syntax error and an error of the checker.
FORKED = {1, 6}


def asl_check(path: Path, forked: bool) -> subprocess.CompletedProcess:
    """``cosydb asl check path``: a forked ``cosydb`` process, or the command run in this one
    (an exception it does not handle fails the test, as its traceback would)."""
    from typer.testing import CliRunner

    from cosydb.cli import app

    if forked:
        return cosydb("asl", "check", path)
    result = CliRunner().invoke(app, ["asl", "check", str(path)], catch_exceptions=False)
    return subprocess.CompletedProcess(
        ["cosydb", "asl", "check", str(path)], result.exit_code, result.stdout, result.stderr
    )


def test_malformed_specifications_are_one_line_errors(tmp_path):
    for number, text in enumerate(MALFORMED, 1):
        path = tmp_path / f"bad{number}.asl"
        path.write_text(text)
        result = asl_check(path, number in FORKED)
        assert result.returncode == 1, (text, result.stdout, result.stderr)
        assert result.stderr == "", text
        lines = result.stdout.splitlines()
        assert len(lines) == 1, (text, lines)
        assert re.fullmatch(rf"{re.escape(str(path))}:\d+:\d+: \S.*", lines[0]), lines[0]
    assert len(MALFORMED) == 20


#: The seed's properties that the catalog also holds, hand-written: ASL name -> catalog name.
RESTATED = {
    "TotalCost": "total_cost",
    "CommCost": "comm_cost",
    "SyncCost": "sync_cost",
    "IoCost": "io_cost",
    "DominatingCommFunction": "dominating_comm_function",
    "DominatingCommCall": "dominating_comm_call",
    "FrequentCommunication": "frequent_communication",
    "BigMessages": "big_messages",
    "UnevenMpDistribution": "uneven_mp_distribution",
    "LoadImbalanceAtBarrier": "load_imbalance_at_barrier",
    "FrequentCommInProcess": "frequent_comm_in_process",
    "FrequentCommOnAllProcesses": "frequent_comm_on_all_processes",
    "FrequentCommSomeProcesses": "frequent_comm_some_processes",
    "LateSender": "idle_late_sender",
    "LateReceiver": "idle_late_receiver",
    "L1DataCacheMisses": "l1_data_cache_misses",
    "L1InstCacheMisses": "l1_inst_cache_misses",
    "L2CacheMisses": "l2_cache_misses",
    "SlowSlaves": "slow_slaves",
    "OverloadedMaster": "overloaded_master",
    "MessagesInWrongOrder": "messages_in_wrong_order",
    **{
        f"{asl}{name}": f"{catalog}_{written}"
        for asl, catalog in (("L1D", "l1d"), ("L1I", "l1i"), ("L2", "l2"))
        for name, written in (
            ("CacheMissesPerInstance", "cache_misses_per_instance"),
            ("CacheMissesInAllInstancesInProcess", "cache_misses_in_all_instances_in_process"),
            ("CacheMissesInAllInstancesInAllProcesses", "cache_misses_in_all_instances_in_all_processes"),
            ("CacheMissesInSomeNotAllInstances", "cache_misses_in_some_not_all_instances"),
        )
    },
}

#: The report's LateSender and LateReceiver are over all processes (no Process parameter): the
#: catalog's rows per process, where a call waited, are its own; compared are those over all.
OVER_ALL_PROCESSES = {"LateSender", "LateReceiver", "SlowSlaves", "MessagesInWrongOrder"}

#: Metaproperties: ASL gives them no value (their severity is a max over processes, not a
#: time over the rank basis), so the compiled value is none, the catalog's the time summed
#: over the processes where the property holds.
VALUELESS = {"FrequentCommOnAllProcesses", "FrequentCommSomeProcesses"}
#: ... nor to the metaproperties over instances (the catalog's: the misses of the most severe).
VALUELESS |= {name for name in RESTATED if "Instances" in name}


def _rows(evaluation, name: str) -> dict:
    return {
        tuple(row[:4]): tuple(row[4:])
        for row in evaluation.query(
            "SELECT callpath_id, region_id, location_id, condition_id, condition, confidence, severity, value "
            f"FROM {{{{ ref('{name}') }}}}"
        ).fetchall()
    }


def _close(a, b) -> bool:
    if a is None or b is None or isinstance(a, bool):
        return a == b
    return a == pytest.approx(b, rel=1e-12, abs=1e-300)


def assert_compiled_equal_hand_written(db: Path, params: dict | None = None, experiment: str | None = None) -> None:
    """The compiled seed properties' rows equal the hand-written ones' on experiment
    ``experiment`` of ``db`` (default: its only one)."""
    con = database.connect(db)
    try:
        names = [*RESTATED, *RESTATED.values()]
        experiment_id = choose_experiment(con, db, experiment)["experiment_id"]
        evaluation = evaluator.evaluate(
            con, catalog.load([catalog.asl_specification("mpi")]), experiment_id, params, names
        )
        holding = 0
        for compiled, written in RESTATED.items():
            # both evaluated, or both not (a run without the counters they read)
            evaluated = evaluation.status[compiled] == "evaluated"
            assert evaluated == (evaluation.status[written] == "evaluated"), (compiled, evaluation.status[compiled])
            if not evaluated:
                continue
            ours, theirs = _rows(evaluation, compiled), _rows(evaluation, written)
            if compiled in OVER_ALL_PROCESSES:
                assert any(key[2] is not None for key in theirs) == any(row[0] for row in theirs.values())
                theirs = {key: row for key, row in theirs.items() if key[2] is None}
            assert set(ours) == set(theirs), compiled
            for key, row in theirs.items():
                # condition, confidence and severity everywhere; value (which ASL does not
                # define: the compiled one is the severity's time, DominatingCommCall's
                # MaxCommTime, the catalog's the call's own time) where the condition holds
                compared = range(4) if row[0] and compiled not in VALUELESS else range(3)
                assert all(_close(ours[key][i], row[i]) for i in compared), (compiled, key, ours[key], row)
                assert ours[key][3] is None or compiled not in VALUELESS
                holding += bool(row[0])
        assert holding > 0  # not only rows whose condition is false
    finally:
        con.close()


@pytest.mark.parametrize("trace", SCALASCA_TRACES)
def test_compiled_seed_properties_equal_the_hand_written_ones(real_db, trace):
    assert_compiled_equal_hand_written(real_db(trace))


def every_cache_counter_run():
    """Two ranks whose main calls kernel twice, the second instance with a nested solve;
    every counter CacheCost reads (misses and instructions) differs per instance and rank,
    and main has loads and stores of its own."""
    counters = ("PAPI_L1_DCM", "PAPI_L1_ICM", "PAPI_L2_TCM", "PAPI_LD_INS", "PAPI_SR_INS")
    b = TraceBuilder(2, counters=counters)
    for r in (0, 1):
        b[r].enter(0, "main")
        b[r].measure(0)
        for i in (0, 1):
            counts = {name: (r + 1) * (i + 2) * (17 + 13 * k) for k, name in enumerate(counters)}
            b[r].enter(100 + 400 * i, "kernel")
            b[r].measure(100 + 400 * i)
            if i == 1:
                b[r].region("solve", 150 + 400 * i, 250 + 400 * i, counters=dict(counts, PAPI_L2_TCM=r))
            b[r].measure(400 + 400 * i, **counts)
            b[r].leave(400 + 400 * i)
        b[r].measure(END, PAPI_LD_INS=1000 + r, PAPI_SR_INS=300)
        b[r].leave(END)
    return b


RUNS = ConstructedRuns()
for make in (
    every_cache_counter_run,
    cache_run,
    communication_run,
    isend_waitall_run,
    sendrecv_and_test_run,
    one_waitall_run,
):
    RUNS.run()(make)
RUNS.run((False,), (True,))(master_slave_run)
RUNS.run(("imbalanced",))(barrier_run)


@pytest.mark.parametrize(
    "run, args, params",
    [
        (every_cache_counter_run, (), None),
        (cache_run, (), None),
        (communication_run, (), {"p_small_comm_s": 250e-9}),
        (master_slave_run, (False,), None),
        (master_slave_run, (True,), None),
        (barrier_run, ("imbalanced",), None),
        (isend_waitall_run, (), None),
        (sendrecv_and_test_run, (), None),
        (one_waitall_run, (), None),
    ],
    ids=[
        "every_cache_counter",
        "cache",
        "communication",
        "master_slave",
        "no_master_slave",
        "barrier",
        "wrong_order_isend_waitall",
        "wrong_order_sendrecv_test",
        "no_wrong_order_in_one_waitall",
    ],
)
def test_compiled_seed_properties_equal_the_hand_written_ones_on_constructed_runs(runs, run, args, params):
    """The same on tests/test_properties_asl.py's constructed runs, whose hand-written values
    that file checks by hand (FrequentCommInProcess on ranks 2 and 3 only, ...)."""
    assert_compiled_equal_hand_written(runs.db, params, run_name(run, args))


@RUNS.run()
def per_process_costs_run():
    """Rank 0 receives for 80 ns and sends for 30 ns, rank 1 sends for 10 ns and receives for 20 ns."""
    b = TraceBuilder(2)
    with b[0].open("main", 0, 1000):
        b[0].mpi_recv(100, 180, src=1, tag=0, nbytes=8)
        b[0].mpi_send(300, 330, dst=1, tag=1, nbytes=8)
    with b[1].open("main", 0, 1000):
        b[1].mpi_send(150, 160, dst=0, tag=0, nbytes=8)
        b[1].mpi_recv(200, 220, src=0, tag=1, nbytes=8)
    return b


def test_per_process_costs_and_their_metaproperty_against_constructed_times(runs):
    """CommCostPerProcess (Cost per process) and CommCostOnAllProcesses (it holds on every
    process: PropertyOnAllProcesses), by hand: rank 0 receives for 80 ns, rank 1 for 20 ns;
    only rank 0 calls MPI_Send (30 ns). Duration(RankBasis = the whole run) = 2 x 1000 ns."""
    result = runs.evaluate(
        per_process_costs_run,
        "CommCostPerProcess",
        "CommCostOnAllProcesses",
        properties_dirs=[catalog.asl_specification("mpi")],
    )
    per_process = property_rows(result, "CommCostPerProcess", all_processes=False)
    assert per_process[("prog/main/MPI_Recv", 0)] == pytest.approx(80 * NS)
    assert per_process[("prog/main/MPI_Recv", 1)] == pytest.approx(20 * NS)
    assert per_process[("prog/main/MPI_Send", 0)] == pytest.approx(30 * NS)
    assert per_process[("prog/main/MPI_Send", 1)] == pytest.approx(10 * NS)
    rows = {r["callpath"]: r for r in result["results"] if r["property"] == "CommCostOnAllProcesses"}
    # MPI_Recv and MPI_Send communicate on both ranks, and so do their callers
    assert set(rows) == {"prog", "prog/main", "prog/main/MPI_Recv", "prog/main/MPI_Send"}
    assert rows["prog/main/MPI_Recv"]["severity"] == pytest.approx(80 / 2000)
    assert rows["prog/main/MPI_Send"]["severity"] == pytest.approx(30 / 2000)


@RUNS.run()
def send_and_recv_run():
    """main calls MPI_Send on rank 0 and MPI_Recv on rank 1."""
    b = TraceBuilder(2)
    with b[0].open("main", 0, 1000):
        b[0].mpi_send(100, 130, dst=1, tag=0, nbytes=8)
    with b[1].open("main", 0, 1000):
        b[1].mpi_recv(100, 180, src=0, tag=0, nbytes=8)
    return b


def test_a_conjunct_reading_no_quantified_variable_is_tested_beside_the_subquery(runs, tmp_path):
    """EXISTS s IN S SUCH THAT A(s) AND B is B AND EXISTS s IN S SUCH THAT A(s) where B reads
    no s: the compiled SQL tests B outside the subquery, with the truth values of B inside
    it (an unknown B, 1/0 > 0, makes EXISTS false and NEXISTS true). The run: main calls
    MPI_Send on rank 0 and MPI_Recv on rank 1, so every call path has summaries."""
    spec = tmp_path / "hoisted.asl"
    conditions = {
        "ForRecv": 'EXISTS s IN e.profile SUCH THAT s.region == r AND r.CalledFunc.Name == "MPI_Recv"',
        "UnknownExists": "EXISTS s IN e.profile SUCH THAT s.region == r AND 1 / 0 > 0",
        "UnknownNexists": "NEXISTS s IN e.profile SUCH THAT s.region == r AND 1 / 0 > 0",
        "NoneForRecv": 'NEXISTS s IN e.profile SUCH THAT s.region == r AND r.CalledFunc.Name == "MPI_Recv"',
    }
    spec.write_text(
        "".join(
            f"PROPERTY {name}(FuncCall r, Experiment e, Region RankBasis) {{\n"
            f"  CONDITION: {condition}; CONFIDENCE: 1; SEVERITY: 1; }}\n"
            for name, condition in conditions.items()
        )
    )
    body = catalog.load([spec])["ForRecv"].body
    beside = "exists (select 1 from (select 1) as one where ((select any_value(o.name) from "
    inside = "exists (select 1 from asl_region_summary as s where ((s.region_callpath_id is not distinct from r."
    assert re.search(rf"{re.escape(beside)}.* = 'MPI_Recv'\)\) and {re.escape(inside)}", body), body
    result = runs.evaluate(send_and_recv_run, *conditions, properties_dirs=[spec])
    holds = {
        name: {r["callpath"] for r in evaluated_rows(result, name, "stored") if r["condition"]} for name in conditions
    }
    every = {r["callpath"] for r in evaluated_rows(result, "UnknownNexists", "stored")}
    assert every == {"prog", "prog/main", "prog/main/MPI_Send", "prog/main/MPI_Recv"}
    assert holds == {
        "ForRecv": {"prog/main/MPI_Recv"},
        "UnknownExists": set(),
        "UnknownNexists": every,
        "NoneForRecv": every - {"prog/main/MPI_Recv"},
    }


@RUNS.run()
def recv_on_rank_0_run():
    """Rank 0 receives for 150 ns what rank 1 sends for 10 ns."""
    b = TraceBuilder(2)
    with b[0].open("main", 0, 1000):
        b[0].mpi_recv(100, 250, src=1, tag=0, nbytes=8)
    with b[1].open("main", 0, 1000):
        b[1].mpi_send(200, 210, dst=0, tag=0, nbytes=8)
    return b


def test_report_runs_an_asl_file_and_compile_writes_what_it_runs(runs, tmp_path):
    """``cosydb report --asl`` end to end; what ``cosydb asl compile`` writes, evaluated as a
    properties directory, gives the same severities."""
    spec = tmp_path / "mine.asl"
    spec.write_text(
        "// Call paths that spend more than 5 % of the run in MPI on some process.\n"
        "PROPERTY MpiHeavySomewhere(FuncCall r, Experiment e, Region RankBasis) {\n"
        "LET\n"
        "  float Basis = UNIQUE({s IN e.profile WITH s.region == RankBasis AND s.Proc == ALLPROCESSES}).Incl;\n"
        "  float Worst = MAX(s.CommTime + s.SyncTime WHERE s IN\n"
        "                    {x IN e.profile WITH x.region == r AND x.Proc != ALLPROCESSES});\n"
        "IN\n"
        "  CONDITION: Worst > 0.05 * Basis;\n"
        "  CONFIDENCE: 1;\n"
        "  SEVERITY: Worst / Basis;\n"
        "}\n"
    )
    experiment = run_name(recv_on_rank_0_run)
    shown = cosydb("report", runs.db, "--experiment", experiment, "--asl", spec, "--format", "json", "--threshold", "0")
    assert shown.returncode == 0, shown.stderr
    rows = {r["callpath"]: r for r in json.loads(shown.stdout)["results"] if r["property"] == "MpiHeavySomewhere"}
    # the worst process's MPI time over the whole run's 2000 ns: rank 0 receives 150 ns
    assert set(rows) == {"prog", "prog/main", "prog/main/MPI_Recv"}
    assert rows["prog/main/MPI_Recv"]["severity"] == pytest.approx(150 / 2000)
    compiled = cosydb("asl", "compile", spec, "-o", tmp_path / "compiled")
    assert compiled.returncode == 0 and (tmp_path / "compiled" / "MpiHeavySomewhere.sql").exists()
    again = runs.evaluate(recv_on_rank_0_run, "MpiHeavySomewhere", properties_dirs=[tmp_path / "compiled"])
    rows_again = {r["callpath"]: r["severity"] for r in evaluated_rows(again, "MpiHeavySomewhere")}
    assert rows_again == {k: r["severity"] for k, r in rows.items()}


@pytest.mark.parametrize("trace", SCALASCA_TRACES)
def test_late_sender_pattern_is_the_catalogs_late_sender_over_the_call_tree(real_db, trace):
    """Figure 3.11's property counts a match at every call path on the receive's region stack:
    on every shared trace it is the catalog's CRE late_sender, which counts it at the
    receiving call path, summed over the call paths at and under r."""
    con = database.connect(real_db(trace))
    try:
        names = ["LateSenderPattern", "late_sender"]
        evaluation = evaluator.evaluate(con, catalog.load([catalog.asl_specification("mpi")]), 1, {}, names)
        compared = evaluation.query("""
            with ours as (
                select callpath_id, value, condition from {{ ref('LateSenderPattern') }}
            ),

            theirs as (
                select a.ancestor_id as callpath_id, sum(l.value) as value
                from {{ ref('late_sender') }} as l
                join {{ ref('callpath_ancestors') }} as a on a.descendant_id = l.callpath_id
                where l.location_id is null
                group by all
            )

            select ours.callpath_id, ours.value, ours.condition, theirs.value
            from ours full join theirs using (callpath_id)
        """).fetchall()
    finally:
        con.close()
    assert len(compared) >= 5  # every call path of the run
    for callpath, ours, holds, theirs in compared:
        assert ours == pytest.approx(theirs or 0, rel=1e-12, abs=1e-300), callpath
        assert holds == (ours > 0), callpath
    assert any(holds for _, _, holds, _ in compared) == (trace == "scorep-late_sender")


@RUNS.run()
def late_sender_in_solve_run():
    """Rank 0 receives in solve from 100 what rank 1 sends from 300, then in main from 500
    what rank 1 sent from 450."""
    b = TraceBuilder(2)
    with b[0].open("main", 0, 1000):
        with b[0].open("solve", 50, 450):
            b[0].mpi_recv(100, 400, src=1, tag=0, nbytes=8)
        b[0].mpi_recv(500, 600, src=1, tag=1, nbytes=8)
    with b[1].open("main", 0, 1000):
        b[1].mpi_send(300, 350, dst=0, tag=0, nbytes=8)
        b[1].mpi_send(450, 460, dst=0, tag=1, nbytes=8)
    return b


def test_late_sender_pattern_sums_the_idle_time_of_matches_under_a_call_path(runs):
    """Section 3.3.6's pattern LateSender(r) and its property (LateSenderPattern), by hand:
    rank 0 receives in solve (enter 100) a message rank 1 sends from 300: idle 200 ns; rank 0
    then receives in main (enter 500) one rank 1 sent from 450, before: no late sender.
    Matches count at every call path on the receive's region stack."""
    result = runs.evaluate(
        late_sender_in_solve_run, "LateSenderPattern", "late_sender", properties_dirs=[catalog.asl_specification("mpi")]
    )
    rows = {r["callpath"]: r for r in result["results"] if r["property"] == "LateSenderPattern"}
    assert set(rows) == {"prog", "prog/main", "prog/main/solve", "prog/main/solve/MPI_Recv"}
    for row in rows.values():
        assert row["value"] == pytest.approx(200 * NS) and row["severity"] == pytest.approx(200 / 2000)
    # the catalog's CRE late_sender has the same match at the receive's own call path
    catalog_row = property_rows(result, "late_sender")
    assert catalog_row == {"prog/main/solve/MPI_Recv": pytest.approx(200 * NS)}
