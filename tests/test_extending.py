"""Adding a Scalasca metric is one file: a property naming its Scalasca parent joins the
metric tree, the severity cube and the report without any other edit."""

import pytest

from cosydb import catalog, database, evaluator

METRIC = """{#---
kind: property
parent: mpi_point2point
unit: s
wait_state: true
requires: [trace]
info: Late Sender again, as a plug-in metric.
description: The rows of mpi_latesender_matches, summed as mpi_latesender does.
diagnosis: None.
---#}
{% import 'templates/asl.sql' as asl with context %}
{{ asl.sum_matches(ref('mpi_latesender_matches'), 'idle_s') }}
"""


def test_a_new_scalasca_metric_is_one_file(real_db, tmp_path):
    plugins = tmp_path / "props" / "scalasca_more"
    plugins.mkdir(parents=True)
    (plugins / "my_latesender.sql").write_text(METRIC)
    entries = catalog.load([plugins.parent])
    con = database.connect(real_db("scorep-late_sender"))
    try:
        evaluation = evaluator.evaluate(con, entries, 1, {}, ["time_cube"])
        tree = evaluation.query(
            "SELECT metric, parent, kind FROM {{ ref('metric_tree') }} WHERE metric = 'my_latesender'"
        ).fetchall()
        cube = dict(
            evaluation.query(
                "SELECT metric, sum(inclusive) FROM {{ ref('time_cube') }} "
                "WHERE metric IN ('my_latesender', 'mpi_latesender', 'mpi_latereceiver', 'mpi_point2point') "
                "GROUP BY 1"
            ).fetchall()
        )
        point2point_exclusive = evaluation.query(
            "SELECT sum(exclusive) FROM {{ ref('time_cube') }} WHERE metric = 'mpi_point2point'"
        ).fetchone()[0]
    finally:
        con.close()
    assert tree == [("my_latesender", "mpi_point2point", "property")]
    # Scalasca's total on this trace (docs/user-guide.md): 1.301006 s, the plug-in's rows are the same
    assert cube["my_latesender"] == pytest.approx(cube["mpi_latesender"]) == pytest.approx(1.301006, abs=1e-6)
    # a part of its parent: the parent's exclusive time is what its wait-state children leave
    children = cube["my_latesender"] + cube["mpi_latesender"] + cube.get("mpi_latereceiver", 0.0)
    assert point2point_exclusive == pytest.approx(cube["mpi_point2point"] - children)
