"""The tests' seam, conftest.evaluate: it evaluates only the properties asked (and what they
ref()), agrees with the whole report on them, and a property it did not evaluate fails
instead of showing no rows."""

import pytest
from conftest import evaluate, evaluated_rows, full_report, loaded_db, property_rows, small_trace
from cosydb.fixtures.generator import TraceBuilder

from cosydb import catalog
from cosydb.errors import CosyError
from cosydb.loading import load


@pytest.fixture(scope="module")
def no_counters(tmp_path_factory):
    folder = tmp_path_factory.mktemp("small")
    load(small_trace(folder), folder / "run.cosydb")
    return folder / "run.cosydb"


def test_only_the_properties_asked_are_evaluated(no_counters):
    result = evaluate(no_counters, "late_sender", "l1_data_cache_misses")
    assert result["evaluated"] == {"late_sender"}
    assert property_rows(result, "late_sender") == {}
    assert {r["property"] for r in result["results"]} == {"l1_data_cache_misses"}  # its status row


def test_a_property_not_evaluated_fails_instead_of_showing_no_rows(no_counters):
    result = evaluate(no_counters, "late_sender", "l1_data_cache_misses")
    with pytest.raises(AssertionError, match=r"^late_receiver was not evaluated \(not selected\)$"):
        property_rows(result, "late_receiver")
    with pytest.raises(AssertionError, match=r"l1_data_cache_misses was not evaluated \(no PAPI metrics\)"):
        evaluated_rows(result, "l1_data_cache_misses", "stored")
    with pytest.raises(CosyError, match="'late_sendr' is unknown; did you mean late_sender"):
        evaluate(no_counters, "late_sendr")
    with pytest.raises(CosyError, match="'p_io_grup' is unknown"):
        evaluate(no_counters, "io_cost", params={"p_io_grup": "x"})


def test_an_entrys_error_names_its_file(no_counters, tmp_path):
    plugins = tmp_path / "props" / "mine"
    plugins.mkdir(parents=True)
    broken = plugins / "broken_cost.sql"
    broken.write_text(
        "{#---\nkind: property\nparent: total_cost\nunit: s\ninfo: Broken.\ndescription: Broken.\n"
        "diagnosis: None.\n---#}\nselect no_such_column from {{ ref('callpaths') }}\n"
    )
    with pytest.raises(CosyError) as error:
        evaluate(no_counters, "broken_cost", properties_dirs=[plugins.parent])
    assert str(error.value).startswith(f"{broken}: evaluation failed:") and "no_such_column" in str(error.value)


def test_the_seam_agrees_with_the_whole_report(tmp_path):
    """Every property asked through the seam: the same report as cosydb.report.run's."""
    b = TraceBuilder(3)
    for r in range(3):
        with b[r].open("main", 0, 1000):
            b[r].region("MPI_Init", 0, 10)
            if r == 0:
                b[r].mpi_send(500, 520, dst=1, tag=0, nbytes=8)
            if r == 1:
                b[r].mpi_recv(100, 600, src=0, tag=0, nbytes=8)
            b[r].collective("MPI_Barrier", 200 * r + 600, 1000 - 10)
            b[r].region("MPI_Finalize", 990, 1000)
    db = loaded_db(b, tmp_path)
    names = sorted(name for name, p in catalog.load().items() if p.kind == "property")
    seam, whole = evaluate(db, *names), full_report(db)

    def comparable(result):
        rows = [{k: v for k, v in r.items() if k != "evaluated_at"} for r in result["results"]]
        return [rows] + [result[k] for k in ("problems", "critical_path", "root_causes", "not_evaluable", "evaluated")]

    assert len(whole["evaluated"]) > 50 and whole["problems"]
    assert comparable(seam) == comparable(whole)
