"""`cosydb report --format html -o report.html`, opened in a real headless Chromium (Debian's
chromium and chromium-driver, driven by selenium): the page renders without a console
error, and the numbers it shows are those of `cosydb report --format json` and
`cosydb cube --format json` on the same database; the cube browser's cells after clicks
(collapsing and expanding call paths) are the stored severity cube's, summed over call
subtrees by SQL. The test keeps a screenshot."""

import colorsys
import json
import re

import pytest
from typer.testing import CliRunner

from cosydb import database
from cosydb.cli import app

TRACE = "lulesh_hyb-8x2-small"
SCALES = {"s": 1, "ms": 1e-3, "µs": 1e-6, "ns": 1e-9}

pytestmark = pytest.mark.browser


def cli_json(*args) -> dict:
    result = CliRunner().invoke(app, [*map(str, args), "--format", "json"])
    assert result.exit_code == 0, result.output
    return json.loads(result.output)


def shown_seconds(text: str) -> float:
    """A value as the page prints it ('334.014 ms') in seconds."""
    number, unit = text.split()
    return float(number) * SCALES[unit]


def shown_value(text: str) -> float:
    """A value of the cube browser as the page prints it ('334.014 ms', '581,056 bytes') in
    seconds, bytes or counts."""
    number, unit = text.split()
    return float(number.replace(",", "")) * SCALES.get(unit, 1)


def chromium():
    """Debian's headless Chromium driven by selenium, its console log kept (quit it when done)."""
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    options = webdriver.ChromeOptions()
    options.binary_location = "/usr/bin/chromium"
    for flag in (
        "--headless=new",
        "--no-sandbox",
        "--disable-gpu",
        "--disable-dev-shm-usage",
        "--window-size=1400,1800",
        "--disable-background-networking",
        "--disable-component-update",
        "--no-first-run",
    ):
        options.add_argument(flag)
    options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    return webdriver.Chrome(service=Service("/usr/bin/chromedriver"), options=options)


@pytest.fixture(scope="module")
def page(real_db, tmp_path_factory):
    """The HTML report of the hybrid LULESH trace in headless Chromium, with the JSON report
    and cube of the same database."""
    db = real_db(TRACE)
    folder = tmp_path_factory.mktemp("html")
    html = folder / "report.html"
    written = CliRunner().invoke(app, ["report", str(db), "--format", "html", "-o", str(html)])
    assert written.exit_code == 0, written.output
    report, cube = cli_json("report", db), cli_json("cube", db)
    browser = chromium()
    try:
        browser.get(html.as_uri())
        browser.save_screenshot(str(folder / "report.png"))
        print(f"screenshot: {folder / 'report.png'}")
        yield browser, report, cube, folder
    finally:
        browser.quit()


def test_renders_without_console_errors(page):
    browser, _, _, folder = page
    errors = [entry for entry in browser.get_log("browser") if entry["level"] == "SEVERE"]
    assert errors == []
    assert (folder / "report.png").stat().st_size > 10_000
    assert browser.find_element("id", "wait-plot").is_displayed()  # plotly drew the per-rank plot


def test_problems_are_the_json_reports(page):
    browser, report, _, _ = page
    rows = browser.find_elements("css selector", "#problems tr[data-property]")
    assert [r.get_attribute("data-property") for r in rows] == [p["property"] for p in report["problems"]]
    for row, problem in zip(rows, report["problems"], strict=True):
        cell = row.find_element("css selector", "td.value")
        assert float(cell.get_attribute("data-value")) == problem["value"]
        assert shown_seconds(cell.text) == pytest.approx(problem["value"], rel=5e-6)
        severity = row.find_element("css selector", "td.severity").text
        assert float(severity.rstrip("%")) == pytest.approx(100 * problem["severity"], abs=0.05)
    assert browser.find_element("css selector", ".bottleneck").text == f"bottleneck: {report['bottleneck']}"


def test_root_causes_are_the_json_reports(page):
    browser, report, _, _ = page
    shown = [c for c in report["root_causes"] if c["cause_index"] <= 5]
    cells = browser.find_elements("css selector", "#root-causes tr td:nth-child(4)")
    # two runs of the delay analysis: its parallel sums may differ in the last bit
    assert [float(c.get_attribute("data-value")) for c in cells] == pytest.approx(
        [c["cause_s"] for c in shown], rel=1e-12
    )


def test_the_cube_browser_sums_to_the_cube(page):
    """The metric tree's totals, summed by the page's script from the embedded cube cells,
    are those of `cosydb cube`; a click on a metric and on a call path shows its locations."""
    browser, _, cube, _ = page
    nodes = browser.find_elements("css selector", "#metrics li")
    totals = {
        li.get_attribute("data-metric"): float(li.find_element("css selector", ".v").get_attribute("data-value"))
        for li in nodes
    }
    expected = {m["metric"]: m["inclusive"] for m in cube["metrics"]}
    assert set(totals) == set(expected)
    for metric, value in expected.items():
        assert totals[metric] == pytest.approx(value, rel=1e-9, abs=1e-12), metric
    browser.find_element("css selector", "#metrics li[data-metric='omp_idle_threads'] > .node").click()
    first = browser.find_element("css selector", "#calltree li[data-callpath] .node")
    first.click()
    ranks = browser.find_elements("css selector", "#ranks li")
    assert len(ranks) == 16  # 8 ranks x 2 threads
    assert all(re.fullmatch(r"[\d.]+ (s|ms|µs|ns)rank \d+(:\d)?", r.text.replace("\n", "")) for r in ranks)


# the cube browser, cell by cell -------------------------------------------------------------

LAGRANGE_ELEMENTS = "lulesh2.0/main/_ZL16LagrangeLeapFrogR6Domain/_ZL16LagrangeElementsR6Domaini"
CALC_Q = LAGRANGE_ELEMENTS + "/_ZL13CalcQForElemsR6Domain"
COMM_SEND = CALC_Q + "/_Z8CommSendR6DomainiiPMS_FRdiEiiibb"
WAITALL = COMM_SEND + "/MPI_Waitall"  # a leaf
MAIN = "lulesh2.0/main"


@pytest.fixture(scope="module")
def stored(page, real_db):
    """The stored severity cube of the page's database (``cosydb cube`` stored it last), read
    by SQL: ``callpath[path] -> id``, ``own[(metric, callpath_id)]`` and
    ``subtree[(metric, callpath_id)]`` -> {location_id: value} (the call path alone, and with
    every call path under it: a recursive query over ``callpaths.parent_id``) and the CPU
    locations in the page's order."""
    db = real_db(TRACE)
    con = database.connect(db)
    try:
        (eid,) = con.execute("SELECT experiment_id FROM experiments").fetchone()
        callpath = dict(
            con.execute("SELECT path, callpath_id FROM callpaths WHERE experiment_id = ?", [eid]).fetchall()
        )
        own, subtree = {}, {}
        for m, c, loc, v in con.execute(
            "SELECT metric, callpath_id, location_id, inclusive FROM severity_cube WHERE experiment_id = ?", [eid]
        ).fetchall():
            own.setdefault((m, c), {})[loc] = v
        for m, c, loc, v in con.execute(
            """WITH RECURSIVE under(top, callpath_id) AS (
                   SELECT callpath_id, callpath_id FROM callpaths WHERE experiment_id = $e
                   UNION ALL
                   SELECT u.top, c.callpath_id FROM under u
                   JOIN callpaths c ON c.parent_id = u.callpath_id AND c.experiment_id = $e)
               SELECT s.metric, u.top, s.location_id, sum(s.inclusive)
               FROM under u JOIN severity_cube s ON s.callpath_id = u.callpath_id AND s.experiment_id = $e
               GROUP BY ALL""",
            {"e": eid},
        ).fetchall():
            subtree.setdefault((m, c), {})[loc] = v
        locations = [
            loc
            for (loc,) in con.execute(
                "SELECT location_id FROM locations WHERE experiment_id = ? AND location_type = 'CPU_THREAD' "
                "ORDER BY rank, thread",
                [eid],
            ).fetchall()
        ]
    finally:
        con.close()
    return dict(callpath=callpath, own=own, subtree=subtree, locations=locations)


def fresh(browser, folder):
    """The page as first opened (the module's other tests click in it)."""
    browser.get((folder / "report.html").as_uri())


def click(browser, selector: str):
    element = browser.find_element("css selector", selector)
    browser.execute_script("arguments[0].scrollIntoView({block: 'center'})", element)
    element.click()


def choose_metric(browser, metric: str):
    click(browser, f"#metrics li[data-metric='{metric}'] > .node")


def node_of(browser, callpath_id: int):
    return browser.find_element("css selector", f"#calltree li[data-callpath='{callpath_id}']")


def toggle(browser, callpath_id: int):
    click(browser, f"#calltree li[data-callpath='{callpath_id}'] > .toggle")


def assert_cells(browser, stored, metric: str, path: str, which: str):
    """The call path ``path`` selected under ``metric``: the call tree's value of it and its
    value on every location are the stored cube's, the call path alone (``which='own'``) or
    with its callees (``'subtree'``), each within the page's rounding (6 digits)."""
    c = stored["callpath"][path]
    expected = stored[which].get((metric, c), {})
    locations = browser.find_elements("css selector", "#ranks li[data-location]")
    assert [int(li.get_attribute("data-location")) for li in locations] == stored["locations"]
    for li in locations:
        want = expected.get(int(li.get_attribute("data-location")), 0.0)
        value = li.find_element("css selector", ".v")
        assert float(value.get_attribute("data-value")) == pytest.approx(want, rel=1e-9, abs=1e-12), (path, li.text)
        assert shown_value(value.text) == pytest.approx(want, rel=5e-6, abs=1e-12), (path, li.text)
    label = node_of(browser, c).find_element("css selector", ":scope > .node > .v")
    assert float(label.get_attribute("data-value")) == pytest.approx(sum(expected.values()), rel=1e-9, abs=1e-12)
    assert shown_value(label.text) == pytest.approx(sum(expected.values()), rel=5e-6, abs=1e-12)
    return expected


def test_cube_browser_cells_after_clicks_are_the_stored_cube(page, stored):
    """As in CUBE, a collapsed call path shows its value with its callees' on every
    location, an expanded one its own: clicks on the inner node LagrangeElements (collapsed,
    then expanded, then collapsed again), on a leaf under it, on main (expanded, then
    collapsed), for time, a wait state and bytes."""
    browser, _, _, folder = page
    fresh(browser, folder)
    ids = stored["callpath"]
    assert browser.find_element("css selector", "#metrics .node.selected").text.endswith("time")
    # LagrangeElements: shown collapsed at first (2.09 s, of which 0.35 ms its own)
    assert node_of(browser, ids[LAGRANGE_ELEMENTS]).get_attribute("data-state") == "collapsed"
    click(browser, f"#calltree li[data-callpath='{ids[LAGRANGE_ELEMENTS]}'] > .node")
    inclusive = assert_cells(browser, stored, "time", LAGRANGE_ELEMENTS, "subtree")
    assert len(inclusive) == 16 and min(inclusive.values()) > 0.1  # 2.09 s over 16 locations
    toggle(browser, ids[LAGRANGE_ELEMENTS])
    assert node_of(browser, ids[LAGRANGE_ELEMENTS]).get_attribute("data-state") == "expanded"
    exclusive = assert_cells(browser, stored, "time", LAGRANGE_ELEMENTS, "own")
    assert sum(exclusive.values()) < sum(inclusive.values()) / 2
    # down to a leaf: its value is the same expanded or not
    toggle(browser, ids[CALC_Q])
    toggle(browser, ids[COMM_SEND])
    click(browser, f"#calltree li[data-callpath='{ids[WAITALL]}'] > .node")
    assert node_of(browser, ids[WAITALL]).get_attribute("data-state") == "leaf"
    leaf = assert_cells(browser, stored, "time", WAITALL, "own")
    assert leaf == stored["subtree"][("time", ids[WAITALL])] and len(leaf) == 16
    # collapsed again, LagrangeElements shows its subtree once more
    toggle(browser, ids[LAGRANGE_ELEMENTS])
    click(browser, f"#calltree li[data-callpath='{ids[LAGRANGE_ELEMENTS]}'] > .node")
    assert_cells(browser, stored, "time", LAGRANGE_ELEMENTS, "subtree")
    # main: expanded at first (its own time), collapsed (all of the run's time under it)
    click(browser, f"#calltree li[data-callpath='{ids[MAIN]}'] > .node")
    assert node_of(browser, ids[MAIN]).get_attribute("data-state") == "expanded"
    assert_cells(browser, stored, "time", MAIN, "own")
    toggle(browser, ids[MAIN])
    assert_cells(browser, stored, "time", MAIN, "subtree")
    toggle(browser, ids[MAIN])
    # another metric keeps the call tree's state: a wait state, then bytes
    choose_metric(browser, "omp_ibarrier_wait")
    click(browser, f"#calltree li[data-callpath='{ids[LAGRANGE_ELEMENTS]}'] > .node")
    waits = assert_cells(browser, stored, "omp_ibarrier_wait", LAGRANGE_ELEMENTS, "subtree")
    # the case: 300.9 ms under LagrangeElements, none in it itself (the page showed 0 s)
    assert sum(waits.values()) == pytest.approx(0.3009, abs=5e-5) and len(waits) == 16
    assert ("omp_ibarrier_wait", ids[LAGRANGE_ELEMENTS]) not in stored["own"]
    choose_metric(browser, "bytes_sent")
    toggle(browser, ids[LAGRANGE_ELEMENTS])
    assert_cells(browser, stored, "bytes_sent", LAGRANGE_ELEMENTS, "own")
    click(browser, f"#calltree li[data-callpath='{ids[COMM_SEND]}'] > .node")
    assert_cells(browser, stored, "bytes_sent", COMM_SEND, "own")
    toggle(browser, ids[COMM_SEND])
    sent = assert_cells(browser, stored, "bytes_sent", COMM_SEND, "subtree")
    assert sum(sent.values()) > 0


def hsl(share: float) -> tuple[int, int, int]:
    """The page's colour of a share (0 pale blue .. 1 red) as CSS hsl(), then as rgb."""
    share = min(1.0, max(0.0, share))
    hue, light = round(220 - 220 * share), round(95 - 35 * share)
    return tuple(round(255 * x) for x in colorsys.hls_to_rgb(hue / 360, light / 100, 0.8))


def backgrounds(browser, selector: str) -> list[tuple[str, float, tuple[int, ...]]]:
    """(key, data-value, rgb of the computed background) of every node under ``selector``."""
    rows = browser.execute_script(
        """return [...document.querySelectorAll(arguments[0])].map((li) => {
             const node = li.querySelector(':scope > .node');
             return [li.dataset.metric ?? li.dataset.callpath ?? li.dataset.location,
                     node.querySelector('.v').dataset.value, getComputedStyle(node).backgroundColor];
           });""",
        selector,
    )
    return [(key, float(v), tuple(int(x) for x in re.findall(r"\d+", bg)[:3])) for key, v, bg in rows]


def assert_colour(rgb, share, what):
    assert all(abs(a - b) <= 2 for a, b in zip(rgb, hsl(share), strict=True)), (what, share, rgb, hsl(share))


def strong(rgb) -> bool:
    """Red to orange and saturated (share >= 0.9: hue <= 22, lightness <= 64 %)."""
    h, lightness, _ = colorsys.rgb_to_hls(*(x / 255 for x in rgb))
    return h * 360 <= 25 and lightness <= 0.65


def test_cube_browser_colours_are_per_metric(page, stored):
    """Each metric is coloured by its share of its own hierarchy's root from `cosydb cube`
    (time metrics by time's total, not bytes'); a call path by its share of the chosen metric's
    total; a location by its share of the largest. The largest cell of a time metric is strong."""
    browser, _, cube, folder = page
    fresh(browser, folder)
    metrics = {m["metric"]: m for m in cube["metrics"]}

    def root(m):
        while metrics[m]["parent"]:
            m = metrics[m]["parent"]
        return m

    shown = backgrounds(browser, "#metrics li[data-metric]")
    assert len(shown) == len(metrics)
    for m, _, rgb in shown:
        whole = metrics[root(m)]["inclusive"]
        assert_colour(rgb, metrics[m]["inclusive"] / whole if whole > 0 else 0, m)
    colour = {m: rgb for m, _, rgb in shown}
    assert strong(colour["time"]) and strong(colour["bytes"])
    assert not strong(colour["omp_ibarrier_wait"])  # 0.33 of 16.95 s
    # the call tree of a time metric: its largest call path (omp_idle_threads in MPI_Init_thread, 95 %)
    choose_metric(browser, "omp_idle_threads")
    total = metrics["omp_idle_threads"]["inclusive"]
    nodes = backgrounds(browser, "#calltree li[data-callpath]")
    assert len(nodes) > 3
    for c, value, rgb in nodes:
        assert_colour(rgb, value / total, c)
    largest = max(nodes, key=lambda n: n[1])
    assert largest[0] == str(stored["callpath"]["lulesh2.0/main/MPI_Init_thread"]) and strong(largest[2])
    # the locations: by the largest location
    click(browser, f"#calltree li[data-callpath='{largest[0]}'] > .node")
    cells = backgrounds(browser, "#ranks li[data-location]")
    top = max(v for _, v, _ in cells)
    for loc, value, rgb in cells:
        assert_colour(rgb, value / top, loc)
    assert sum(strong(rgb) for _, _, rgb in cells) >= 1


def test_cube_browser_shows_metric_names_whole(page):
    """No metric name is cut: each one lies within the metric panel's visible width, which
    needs no horizontal scrolling (names beyond its right edge would be hidden); the name and
    what it measures on hover."""
    browser, _, cube, folder = page
    fresh(browser, folder)
    box, names = browser.execute_script(
        """const box = document.getElementById('metrics');
           const left = box.getBoundingClientRect().left + box.clientLeft;
           return [[box.scrollWidth, box.clientWidth, left, left + box.clientWidth],
             [...box.querySelectorAll('li[data-metric] > .node')].map((n) => {
               const range = document.createRange(); range.selectNodeContents(n.lastChild);
               const lines = range.getClientRects(), q = range.getBoundingClientRect();
               return [n.parentElement.dataset.metric, n.lastChild.data, lines.length, q.left, q.right, n.title];
             })];"""
    )
    scroll_width, client_width, left, right = box
    assert scroll_width <= client_width
    assert len(names) == len(cube["metrics"]) > 100
    for metric, text, lines, start, end, title in names:
        assert text == metric and lines == 1, metric  # whole, on one line
        assert left <= start and end <= right + 0.5, (metric, start, end, left, right)
        assert title.startswith(metric + ": "), metric


def test_glossary_lists_only_what_this_experiment_holds(page):
    """The glossary explains every listed problem and only properties evaluated on this run or
    metrics it holds: no HPF or cache-miss entry on a trace with neither."""
    browser, report, cube, _ = page
    entries = {
        e.get_attribute("id").removeprefix("about-")
        for e in browser.find_elements("css selector", ".about details[id^='about-']")
    }
    evaluated = {r["property"] for r in report["results"] if r["status"] == "evaluated"}
    present = {m["metric"] for m in cube["metrics"] if m["inclusive"] != 0}
    assert {p["property"] for p in report["problems"]} <= entries
    assert entries <= evaluated | present, entries - evaluated - present
    assert not [e for e in entries if e.startswith("hpf_") or "cache" in e]


def test_the_plotted_stacks_are_what_each_rank_waited(page):
    """The per-rank plot as Chromium drew it (plotly's data of the rendered div): per rank the
    stacked bars add up to what the rank waited by Scalasca's cube, the wait-state metrics
    not below another one (its all.csv; a part or a twin is never stacked on its whole)."""
    from conftest import real_trace
    from scalasca_reference import csv_cells

    from cosydb import catalog

    browser = page[0]
    traces = browser.execute_script(
        "return document.getElementById('wait-plot').data.map(t => ({name: t.name, x: t.x, y: t.y}));"
    )
    assert len(traces) >= 2 and traces[-1]["name"] == "other wait states"
    ours = {}
    for trace in traces:
        for rank, value in zip(trace["x"], trace["y"]):
            ours[int(rank)] = ours.get(int(rank), 0.0) + value
    entries = catalog.load()
    waits = {name for name, p in entries.items() if p.wait_state}
    tops = {m for m in waits if not set(catalog.ancestors(entries, m)) & waits}
    theirs = {}
    for (metric, _, (rank, _)), value in csv_cells(real_trace(TRACE)).items():
        if metric in tops:
            theirs[rank] = theirs.get(rank, 0.0) + value
    assert set(ours) == set(theirs)
    for rank, value in theirs.items():
        assert ours[rank] == pytest.approx(value, rel=1e-4), rank
