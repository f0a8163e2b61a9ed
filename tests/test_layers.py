"""The layers read downwards only: the loaders' tables, the model (sql/), the catalog
(properties/), the report layer (reports/). A ref() upwards is an error naming its file."""

import pytest

from cosydb import catalog, database, evaluator, sqlviews, tables
from cosydb.errors import CosyError


def _graph() -> dict[str, sqlviews.SqlObject]:
    return {o.name: o for o in sqlviews.ordered(sqlviews.load_objects(), database.base_tables())}


def test_the_model_reads_no_report_view_and_no_stored_result():
    objects = _graph()
    report_written = {name for name, table in tables.REGISTRY.items() if table.writer == "report"}
    report_views = {name for name, o in objects.items() if o.layer == "report"}
    assert report_views >= {"problems", "problem_places", "report_rows", "run_phases", "root_cause_summary"}
    assert report_written == {"property_results", "property_catalog", "property_evaluation", "severity_cube"}
    for obj in objects.values():
        if obj.layer == "model":
            assert not set(obj.refs) & (report_views | report_written), obj.path
            assert obj.path == f"sql/{obj.name}.sql"
        else:
            assert obj.path == f"reports/{obj.name}.sql"
    # the report layer reads the results (it is there for them)
    assert "property_results" in objects["problems"].refs + objects["problem_places"].refs


def test_no_catalog_entry_reads_the_report_layer():
    """Every entry renders: a ref() to the report layer would be an error (the next tests)."""
    entries = [name for name, p in catalog.load().items() if p.kind != "category"]  # on demand ones too
    items = evaluator.plan(catalog.load(), database.object_names(), entries, database.view_names())
    assert len(items) == len(entries)


@pytest.mark.parametrize(
    "read, layer",
    [("problems", "report"), ("property_results", "results"), ("report_rows", "report")],
)
def test_a_model_file_reading_above_it_is_an_error_naming_the_file(read, layer):
    objects = sqlviews.load_objects()
    objects["late_idle"] = sqlviews.SqlObject("late_idle", f"select * from {{{{ ref('{read}') }}}}", "view")
    with pytest.raises(CosyError) as raised:
        sqlviews.ordered(objects, database.base_tables())
    assert str(raised.value) == (
        f"sql/late_idle.sql: ref('{read}') reads the {layer} layer: the model reads only tables, model"
    )


def test_a_property_reading_the_report_layer_is_an_error_naming_its_file(tmp_path):
    plugin = tmp_path / "mine"
    plugin.mkdir()
    (plugin / "ranked.sql").write_text(
        """{#---
kind: property
parent: null
unit: s
info: Reads the ranking.
description: Reads the report layer, which it may not.
diagnosis: None.
---#}
SELECT NULL::BIGINT AS callpath_id, NULL::BIGINT AS region_id, NULL::BIGINT AS location_id,
       NULL::VARCHAR AS condition_id, true AS condition, 1.0 AS confidence, 0.0 AS severity,
       count(*)::DOUBLE AS value, NULL::VARCHAR AS details
FROM {{ ref('problems') }}
"""
    )
    entries = catalog.load([plugin])
    with pytest.raises(CosyError) as raised:
        evaluator.plan(entries, database.object_names(), ["ranked"], database.view_names())
    assert str(raised.value) == (
        f"{plugin / 'ranked.sql'}: ref('problems') reads the report layer: a property reads only tables, model"
    )
