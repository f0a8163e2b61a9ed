"""Output formats are a registry (cosydb.formats): a new format is one module and one line,
as docs/contributing.md shows; the command line and the Python API choose from it."""

import errno
import json
import re

import pyarrow.compute as pc
import pyarrow.parquet as pq
import pytest
from conftest import small_trace
from typer.testing import CliRunner

from cosydb import database, evaluator, formats, report, report_html, tables
from cosydb.cli import app
from cosydb.loading import load

#: The module of a new report format, as a contributor writes it: the rows of all
#: locations as a Markdown table.
MARKDOWN = """
SUFFIX = "md"


def text(result, view):
    rows = [f"| {r['property']} | {r['value']} |" for r in result["results"] if r["location_id"] is None]
    rows = rows[: view.top]
    return "\\n".join(["| property | value |", "|---|---|", *rows]) + "\\n"
"""


@pytest.fixture(scope="module")
def db(tmp_path_factory):
    scratch = tmp_path_factory.mktemp("formats")
    path = scratch / "small.cosydb"
    load(small_trace(scratch), path)
    return path


def test_a_new_report_format_is_one_module_and_one_line(db, tmp_path, monkeypatch):
    (tmp_path / "report_markdown.py").write_text(MARKDOWN)
    monkeypatch.syspath_prepend(str(tmp_path))
    monkeypatch.setitem(formats.REPORT, "markdown", "report_markdown")  # the one line in cosydb/formats.py
    reported = json.loads(CliRunner().invoke(app, ["report", str(db), "--threshold", "0", "--format", "json"]).stdout)
    expected = [f"| {r['property']} | {r['value']} |" for r in reported["results"] if r["location_id"] is None][:3]
    assert len(expected) == 3
    shown = CliRunner().invoke(app, ["report", str(db), "--threshold", "0", "--format", "markdown", "--top", "3"])
    assert shown.exit_code == 0, shown.output
    assert shown.stdout.splitlines() == ["| property | value |", "|---|---|", *expected]
    written = CliRunner().invoke(
        app, ["report", str(db), "--threshold", "0", "--format", "markdown", "--top", "3", "-o", str(tmp_path / "r.md")]
    )
    assert written.stdout == f"wrote {tmp_path / 'r.md'}\n"
    assert (tmp_path / "r.md").read_text() == shown.stdout


def test_an_unknown_format_is_a_one_line_error_listing_the_registry(db, tmp_path):
    for command, listed in (("report", "table, json, csv, html"), ("export", "cube, perfetto")):
        done = CliRunner().invoke(app, [command, str(db), "--format", "pdf", "-o", str(tmp_path / "x.pdf")])
        assert (done.exit_code, done.stderr) == (2, f"cosydb: --format: 'pdf' is not one of {listed}\n")
        assert not (tmp_path / "x.pdf").exists()
    for args, registry in (
        (["sql", str(db), "SELECT 1"], formats.SQL),
        (["diff", str(db), str(db)], formats.DIFF),
        (["cube", str(db)], formats.CUBE),
        (["properties"], formats.PROPERTIES),
        (["schema"], formats.SCHEMA),
    ):
        done = CliRunner().invoke(app, [*args, "--format", "pdf"])
        assert (done.exit_code, done.stderr) == (2, f"cosydb: --format: 'pdf' is not one of {', '.join(registry)}\n")


def test_another_commands_format_is_one_function_and_one_line(db, tmp_path, monkeypatch):
    """cosydb cube --format markdown: a function of the result, registered as module:function."""
    (tmp_path / "cube_markdown.py").write_text(
        "def show(result):\n"
        "    for m in result['metrics']:\n"
        "        print(f\"| {m['metric']} | {m['inclusive']:.6g} |\")\n"
    )
    monkeypatch.syspath_prepend(str(tmp_path))
    monkeypatch.setitem(formats.CUBE, "markdown", "cube_markdown:show")  # the one line in cosydb/formats.py
    metrics = json.loads(CliRunner().invoke(app, ["cube", str(db), "--format", "json"]).stdout)["metrics"]
    shown = CliRunner().invoke(app, ["cube", str(db), "--format", "markdown"])
    assert shown.exit_code == 0, shown.output
    assert shown.stdout.splitlines() == [f"| {m['metric']} | {m['inclusive']:.6g} |" for m in metrics]
    assert len(metrics) > 5


def test_a_file_format_needs_an_output_file(db):
    done = CliRunner().invoke(app, ["report", str(db), "--format", "html"])
    assert (done.exit_code, done.stderr) == (2, "cosydb: report: --format html needs -o FILE\n")


def test_the_page_shows_the_cube_of_its_report_never_one_stored_before(db, tmp_path, monkeypatch):
    """A report whose results cannot be stored (a read-only database) still writes its page,
    from the severity cube it computed: never from the file an older report stored."""
    report.run(db, fresh=True)  # stores its severity cube
    path = tables.REGISTRY[database.CUBE_TABLE].path(database.experiment_dir(db, 1))
    truth = pq.read_table(path)
    pq.write_table(truth.set_column(5, "inclusive", pc.multiply(truth.column("inclusive"), 2.0)), path)

    def read_only(*_args):
        raise OSError(errno.EROFS, "Read-only file system", str(path))

    monkeypatch.setattr(evaluator, "store", read_only)
    result = report.run(db, fresh=True, cube=True)
    assert result["experiment"]["not_stored"] == f"{path}: Read-only file system"
    report_html.write_html(db, result, tmp_path / "r.html")
    page = (tmp_path / "r.html").read_text()
    shown = json.loads(re.search(r'<script type="application/json" id="cube-data">(.*?)</script>', page).group(1))
    expected = sorted(
        [m, c, loc, v]
        for m, c, loc, v in zip(
            *(truth.column(n).to_pylist() for n in ("metric", "callpath_id", "location_id", "inclusive"))
        )
        if v != 0
    )
    cells = sorted(shown["cells"])
    assert len(expected) > 20 and [c[:3] for c in cells] == [c[:3] for c in expected]
    assert [c[3] for c in cells] == pytest.approx([c[3] for c in expected], rel=1e-12)  # not doubled
