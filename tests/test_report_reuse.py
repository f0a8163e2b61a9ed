"""A report asked again reads the stored results (issue 42, target 3): another --threshold,
--top, --tree, --format or -o shows what an evaluation shows without evaluating the catalog;
whatever changes a result (the catalog's files, a parameter, the rank basis, the focus
region, the baseline, the experiment, cosydb itself, another command's results) or
--fresh evaluates again."""

import json
import os

import pyarrow.parquet as pq
import pytest
from conftest import cosydb, real_trace, small_trace

from cosydb import database, evaluator, report
from cosydb.loading import load

#: A plug-in property: one all-process row, value $p_probe, severity half of it.
PROBE = """{#---
kind: property
parent: null
unit: count
info: A probe.
description: One row of value p_probe and severity p_probe / 2.
diagnosis: None.
params:
  p_probe: {default: 1, type: DOUBLE, doc: The value.}
---#}
SELECT NULL::BIGINT AS callpath_id, NULL::BIGINT AS region_id, NULL::BIGINT AS location_id,
       NULL::VARCHAR AS condition_id, true AS condition, 1.0 AS confidence,
       $p_probe::DOUBLE * 0.5 AS severity, $p_probe::DOUBLE AS value, NULL::VARCHAR AS details
"""


@pytest.fixture
def counted(monkeypatch):
    """The evaluations of the catalog made since (``evaluator.evaluate`` calls), as a list."""
    calls = []
    evaluate = evaluator.evaluate

    def counting(*args, **kwargs):
        calls.append(args[3] if len(args) > 3 else kwargs.get("values"))
        return evaluate(*args, **kwargs)

    monkeypatch.setattr(evaluator, "evaluate", counting)
    return calls


@pytest.fixture
def probe_db(tmp_path):
    """The 2-rank small trace loaded, and a plug-in directory holding the probe: (db, plug-ins, probe file)."""
    db = tmp_path / "small.cosydb"
    load(small_trace(tmp_path), db)
    plugins = tmp_path / "props" / "mine"
    plugins.mkdir(parents=True)
    (plugins / "probe.sql").write_text(PROBE)
    return db, plugins.parent, plugins / "probe.sql"


def probe_row(result) -> dict:
    (row,) = [r for r in result["results"] if r["property"] == "probe"]
    return row


def stored_results(db) -> list[dict]:
    return pq.read_table(db / "experiments" / "1" / f"{database.RESULTS_TABLE}.parquet").to_pylist()


def test_asked_again_with_another_threshold_the_report_reads_the_rows(probe_db, counted):
    db, plugins, _ = probe_db
    first = report.run(db, threshold=0.001, properties_dirs=[plugins])
    again = report.run(db, threshold=0.001, properties_dirs=[plugins])
    higher = report.run(db, threshold=0.6, properties_dirs=[plugins])
    assert len(counted) == 1  # the first report evaluated, the others read its rows
    assert again == first
    # the probe's severity is 0.5: a problem at threshold 0.001, none at 0.6
    assert probe_row(first)["severity"] == 0.5 and "probe" in {p["property"] for p in first["problems"]}
    assert "probe" not in {p["property"] for p in higher["problems"]}
    rows = stored_results(db)  # stored flagged for 0.6, as an evaluation at 0.6 stores them
    assert {r["threshold"] for r in rows} == {0.6}
    assert all(
        r["is_problem"] == bool(r["condition"] and r["severity"] is not None and r["severity"] > 0.6) for r in rows
    )
    assert [r["is_problem"] for r in rows if r["property"] == "probe"] == [False]
    assert close(
        without_evaluated_at(report.run(db, threshold=0.6, properties_dirs=[plugins], fresh=True)),
        without_evaluated_at(higher),
    )
    assert len(counted) == 2  # --fresh evaluated


def test_what_changes_a_result_evaluates_again(probe_db, counted):
    db, plugins, probe = probe_db
    dirs = [plugins]
    probe_only = dict(properties_dirs=dirs, properties=["probe"])  # an evaluation of its own: cheap
    assert probe_row(report.run(db, **probe_only))["value"] == 1.0
    assert probe_row(report.run(db, **probe_only, params={"p_probe": "3"}))["value"] == 3.0
    assert probe_row(report.run(db, **probe_only, params={"p_probe": "3"}))["value"] == 3.0
    assert len(counted) == 2  # the parameter changed once
    # the plug-in's content changes, its size and time do not: severity p_probe / 4
    status = probe.stat()
    probe.write_text(PROBE.replace("::DOUBLE * 0.5", "::DOUBLE / 4.0"))
    assert probe.stat().st_size == status.st_size
    os.utime(probe, ns=(status.st_atime_ns, status.st_mtime_ns))
    assert probe_row(report.run(db, **probe_only, params={"p_probe": "3"}))["severity"] == 0.75
    assert len(counted) == 3
    for options in (dict(rank_basis="work"), dict(region="work"), dict(fresh=True)):
        report.run(db, **probe_only, params={"p_probe": "3"}, **options)
    assert len(counted) == 6
    report.run(db, properties_dirs=dirs)  # the whole catalog with the plug-in
    assert len(counted) == 7
    assert "probe" not in {r["property"] for r in report.run(db)["results"]}  # the built-in catalog alone
    assert len(counted) == 8


def test_another_experiment_baseline_or_cosydb_evaluates_again(probe_db, counted, monkeypatch):
    db, _, _ = probe_db
    one = dict(properties=["location_time"])  # one property: its evaluation is stored and read again
    report.run(db, **one)
    load(small_trace(db.parent / "again"), db)  # the same run loaded again: experiment 2, the latest
    assert report.run(db, **one)["experiment"]["experiment_id"] == 2
    report.run(db, **one)
    assert len(counted) == 2
    report.run(db, **one, experiment="1")  # experiment 1's stored rows
    report.run(db, **one, experiment="1", baseline="2")
    report.run(db, **one, experiment="1", baseline="2")
    assert len(counted) == 3
    monkeypatch.setattr(evaluator, "code_fingerprint", lambda: "another cosydb")
    report.run(db, **one, experiment="1", baseline="2")
    assert len(counted) == 4


def test_a_property_selection_reads_a_whole_evaluation_but_not_a_part(probe_db, counted):
    db, plugins, _ = probe_db
    dirs = [plugins]
    part = report.run(db, properties_dirs=dirs, properties=["probe"])
    assert report.run(db, properties_dirs=dirs, properties=["probe"]) == part
    assert len(counted) == 1
    report.run(db, properties_dirs=dirs)  # the other properties' rows were no evaluation's: evaluated
    assert len(counted) == 2
    read = report.run(db, properties_dirs=dirs, properties=["probe"])  # a part of the whole evaluation
    assert len(counted) == 2
    evaluated = report.run(db, properties_dirs=dirs, properties=["probe"], fresh=True)
    assert len(counted) == 3
    assert close(without_evaluated_at(read), without_evaluated_at(evaluated))
    kept = read["experiment"]["kept_results_of"]  # the rows of the others stay, as stored
    assert "comm_cost" in kept and not {"probe", "location_time"} & set(kept)
    assert part["experiment"]["kept_results_of"] == []
    report.run(db, properties_dirs=dirs)  # all rows still of the same evaluation
    assert len(counted) == 3


def test_the_cube_command_stores_results_of_its_own(probe_db, counted):
    db, _, _ = probe_db
    report.run(db)
    report.cube(db)
    report.run(db)
    assert len(counted) == 3  # report, cube (its own evaluation), report again


def without_evaluated_at(report: str | dict) -> dict:
    """A report (as JSON text or as ``report.run`` returns it) as data, the time each row was
    evaluated left out."""
    data = json.loads(report if isinstance(report, str) else json.dumps(report, default=str))
    for row in data["results"]:
        row.pop("evaluated_at")
    return data


def close(a, b) -> bool:
    """Equal, numbers to 1e-9 relative (two evaluations may sum in another order)."""
    if isinstance(a, float) and isinstance(b, (int, float)):
        return b == pytest.approx(a, rel=1e-9, abs=1e-15)
    if isinstance(a, dict) and isinstance(b, dict):
        return a.keys() == b.keys() and all(close(a[k], b[k]) for k in a)
    if isinstance(a, list) and isinstance(b, list):
        return len(a) == len(b) and all(close(x, y) for x, y in zip(a, b))
    return a == b


def test_the_report_read_again_is_the_report_evaluated(tmp_path):
    """On scorep-collectives: the JSON, the table, --tree and --top of a report that reads the
    stored rows are, byte for byte, those of the report that evaluated them (its rows'
    evaluated_at included), and reading them leaves the stored results' file as it was (an
    evaluation replaces it); at another threshold it lists what an evaluation at that
    threshold lists."""
    db = tmp_path / "collectives.cosydb"
    load(real_trace("scorep-collectives"), db)
    stored = db / "experiments" / "1" / f"{database.RESULTS_TABLE}.parquet"

    def shown(*args):
        done = cosydb("report", db, *args)
        assert done.returncode == 0, done.stderr
        return done.stdout

    def stamp() -> tuple:
        status = stored.stat()
        return status.st_ino, status.st_mtime_ns, stored.read_bytes()

    evaluated = shown("--format", "json")
    written = stamp()
    assert shown("--format", "json") == evaluated
    assert stamp() == written
    shown("--format", "json", "-o", tmp_path / "r.json")
    assert (tmp_path / "r.json").read_text() == evaluated
    higher = shown("--format", "json", "--threshold", "0.05")
    read_higher = stamp()
    evaluated_higher = shown("--format", "json", "--threshold", "0.05", "--fresh")
    assert stamp() != read_higher  # an evaluation replaces the file
    assert len(json.loads(higher)["problems"]) < len(json.loads(evaluated)["problems"])
    assert close(without_evaluated_at(higher), without_evaluated_at(evaluated_higher))
    assert shown("--format", "json", "--threshold", "0.05") == evaluated_higher
    assert (
        json.loads(evaluated_higher)["results"][0]["evaluated_at"] > json.loads(evaluated)["results"][0]["evaluated_at"]
    )
    for args in (("--tree",), ("--top", "3"), ()):
        fresh = shown(*args, "--fresh")
        assert shown(*args) == fresh
