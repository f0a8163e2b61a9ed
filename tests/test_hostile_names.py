"""Names from a trace are text, never markup or terminal control (issue #37, items 5-7): a
trace whose region and experiment names hold HTML, script, terminal escapes, newlines and
line separators gives an HTML page that runs none of it (headless Chromium), text outputs
with every control character escaped (`\\x1b`, `\\n`), JSON with the exact names, and a
CUBE file that is XML (read back with pycubexr)."""

import json
import re
from pathlib import Path

import pytest
from conftest import assert_clean_failure, cosydb
from cosydb.fixtures.generator import TraceBuilder
from pycubexr import CubexParser
from test_report_html import chromium

from cosydb.loading import load
from cosydb.names import printable

#: region names -> how a terminal shows them (names.printable)
HOSTILE = {
    "</script><img src=x onerror=alert(1)>": "</script><img src=x onerror=alert(1)>",
    "<b>x</b>": "<b>x</b>",
    "\"'&": "\"'&",
    "line\u2028sep": "line\\u2028sep",
    "two\nlines": "two\\nlines",
    "\x1b[31mred\x1b[0m": "\\x1b[31mred\\x1b[0m",
    "bell\x07del\x7fcsi\x9b": "bell\\x07del\\x7fcsi\\x9b",
}
PROGRAM = "prog\x1b]0;title\x07"
EXPERIMENT = "<img src=x onerror=alert(2)>\x1b[31mexp\nname"
#: what a terminal may not receive from a name: C0 but the line end, DEL, C1, U+2028/9
CONTROL = re.compile("[\x00-\x09\x0b-\x1f\x7f-\x9f\u2028\u2029]")


@pytest.fixture(scope="module")
def hostile_db(tmp_path_factory):
    """A 2-rank run, program and experiment named hostile too, where rank 1 waits (Late
    Sender) in every hostile region, so that each is a problem's call path."""
    b = TraceBuilder(2, program=PROGRAM)
    for r in range(2):
        with b[r].open("main", 0, 10_000):
            for i, name in enumerate(HOSTILE):
                t = 100 + 1100 * i
                with b[r].open(name, t, t + 1000):
                    if r == 0:
                        b[r].mpi_send(t + 500, t + 510, 1, i, 8)
                    else:
                        b[r].mpi_recv(t + 10, t + 520, 0, i, 8)
    folder = tmp_path_factory.mktemp("hostile")
    load(b.write(folder / "run"), folder / "run.cosydb", name=EXPERIMENT)
    return folder / "run.cosydb"


def test_printable_escapes_control_characters_only():
    assert printable("a\x00\t\n\r\x1b\x7f\x80\x9f\u2028\u2029é€/[x]") == (
        "a\\x00\\t\\n\\r\\x1b\\x7f\\x80\\x9f\\u2028\\u2029é€/[x]"
    )
    assert printable({"k": ["a\nb", 1, None]}) == {"k": ["a\\nb", 1, None]}
    assert printable("one\n\x1b two", lines=True) == "one\n\\x1b two"


@pytest.mark.parametrize(
    "command",
    [
        ["report", "--tree"],
        ["report"],
        ["report", "--wide"],
        ["info"],
        ["cube"],
        ["diff", "1", "1"],
        ["sql", "SELECT name, 1 AS n FROM regions"],
    ],
    ids=" ".join,
)
def test_text_outputs_escape_control_characters(hostile_db, command):
    """No raw control character reaches the terminal; each name shows in its escaped form,
    on one line."""
    result = cosydb(command[0], hostile_db, *command[1:])
    assert result.returncode == 0, result.stderr
    assert not CONTROL.search(result.stdout + result.stderr), repr(CONTROL.findall(result.stdout + result.stderr))
    if command[0] != "info":  # info shows no region; every call path starts at the program
        assert printable(PROGRAM) == "prog\\x1b]0;title\\x07" and printable(PROGRAM) in result.stdout
    if command[0] in ("report", "info", "cube"):
        assert printable(EXPERIMENT) in result.stdout.splitlines()[0]
    if command[:2] in (["report", "--tree"], ["sql", "SELECT name, 1 AS n FROM regions"]):
        for shown in HOSTILE.values():  # every name on one line of the table
            assert any(shown in line for line in result.stdout.splitlines()), shown


def test_an_error_naming_a_region_is_one_escaped_line(hostile_db):
    """An unknown --rank-basis suggests the stored names, escaped."""
    result = cosydb("report", hostile_db, "--rank-basis", "[31mred[0m")
    assert_clean_failure(result, "did you mean \\x1b[31mred\\x1b[0m")
    assert not CONTROL.search(result.stderr)


def test_json_carries_the_exact_names(hostile_db):
    result = cosydb("sql", hostile_db, "SELECT name FROM regions", "--format", "json")
    assert result.returncode == 0, result.stderr
    assert set(HOSTILE) | {PROGRAM} <= {row["name"] for row in json.loads(result.stdout)}


def test_cube_export_is_xml_with_the_names(hostile_db, tmp_path):
    """The .cubex reads back with pycubexr; the names are exact but for the characters XML
    1.0 forbids, written as their escape text (DEL and C1 are allowed in XML 1.0)."""
    written = cosydb("export", hostile_db, "--format", "cube", "-o", tmp_path / "run.cubex")
    assert written.returncode == 0, written.stderr
    with CubexParser(tmp_path / "run.cubex") as cube:
        regions = {cube.get_region(cnode).name for cnode in cube.all_cnodes()}
    assert regions == {
        "prog\\x1b]0;title\\x07",
        "main",
        "MPI_Send",
        "MPI_Recv",
        "</script><img src=x onerror=alert(1)>",
        "<b>x</b>",
        "\"'&",
        "line\u2028sep",
        "two\nlines",
        "\\x1b[31mred\\x1b[0m",
        "bell\\x07del\x7fcsi\x9b",
    }


@pytest.fixture(scope="module")
def page(hostile_db, tmp_path_factory):
    """The hostile trace's HTML report in headless Chromium, every dialog recorded instead
    of shown, with the JSON report of the same database and its call paths."""
    html = tmp_path_factory.mktemp("hostile-html") / "report.html"
    written = cosydb("report", hostile_db, "--format", "html", "-o", html)
    assert written.returncode == 0, written.stderr
    report = cosydb("report", hostile_db, "--format", "json")
    paths = cosydb("sql", hostile_db, "SELECT path FROM callpaths", "--format", "json")
    browser = chromium()
    try:
        browser.execute_cdp_cmd(
            "Page.addScriptToEvaluateOnNewDocument",
            {
                "source": "window.dialogs = []; for (const f of ['alert', 'confirm', 'prompt']) "
                "window[f] = (m) => { window.dialogs.push(String(m)); };"
            },
        )
        browser.get(html.as_uri())
        yield browser, json.loads(report.stdout), {row["path"] for row in json.loads(paths.stdout)}
    finally:
        browser.quit()


@pytest.mark.browser
def test_the_page_runs_nothing_from_the_trace(page):
    browser, _, _ = page
    assert browser.execute_script("return window.dialogs") == []
    assert browser.execute_script("return document.querySelectorAll('img, [onerror]').length") == 0
    assert "x" not in [b.text for b in browser.find_elements("tag name", "b")]  # no <b>x</b> made bold
    errors = [entry for entry in browser.get_log("browser") if entry["level"] == "SEVERE"]
    assert errors == []


@pytest.mark.browser
def test_the_page_shows_the_names_as_text(page):
    browser, report, callpaths = page
    assert browser.execute_script("return document.querySelector('h1').textContent") == f"cosydb report: {EXPERIMENT}"
    places = browser.execute_script(
        "return [...document.querySelectorAll('#problems td.path')].map((td) => td.textContent)"
    )
    # the page's report is another run: a problem's place among equal ones may differ
    assert len(places) == len(report["problems"])
    assert set(places) <= callpaths | {p["place"] for p in report["problems"]}
    assert any(name in place for place in places for name in HOSTILE)
    labels = browser.execute_script(
        "return [...document.querySelectorAll('#calltree li > .node')].map((n) => n.lastChild.data)"
    )
    assert set(HOSTILE) | {PROGRAM, "main"} <= set(labels)


@pytest.mark.browser
def test_the_cube_viewer_works(page):
    """A click on a metric and on a hostile call path shows its value on both ranks."""
    browser, _, _ = page
    browser.find_element("css selector", "#metrics li[data-metric='mpi_latesender'] > .node").click()
    nodes = browser.find_elements("css selector", "#calltree li > .node")
    labels = browser.execute_script("return arguments[0].map((n) => n.lastChild.data)", nodes)
    nodes[labels.index("</script><img src=x onerror=alert(1)>")].click()
    ranks = [li.text.replace("\n", "") for li in browser.find_elements("css selector", "#ranks li")]
    assert len(ranks) == 2 and all(re.fullmatch(r"[\d.]+ (s|ms|µs|ns)rank \d", r) for r in ranks), ranks


def test_property_texts_are_escaped_in_properties_and_explain(tmp_path):
    """A plug-in property whose info and description hold terminal escapes (YAML's \\e):
    shown escaped, the description's lines kept."""
    source = (Path(__file__).parents[1] / "properties" / "cre" / "late_sender.sql").read_text()
    header = 'info: "\\e[31mReceivers\\x07 wait"\ndescription: "first \\e]0;title line\\nsecond line"\n'
    plugin = tmp_path / "plugins" / "mine" / "hostile_sender.sql"
    plugin.parent.mkdir(parents=True)
    plugin.write_text(re.sub(r"info: .*\ndescription: \|\n(  .*\n)+", lambda _: header, source))
    for command in (("properties",), ("explain", "hostile_sender")):
        shown = cosydb(*command, "--properties-dir", tmp_path / "plugins")
        assert shown.returncode == 0, shown.stderr
        assert not CONTROL.search(shown.stdout), command
        assert "\\x1b[31mReceivers\\x07 wait" in shown.stdout, command
    assert "definition: first \\x1b]0;title line\nsecond line\n" in shown.stdout
