"""`cosydb report --format html -o report.html`, opened in a real headless Chromium (Debian's
chromium and chromium-driver, driven by selenium): the page renders without a console
error, and the numbers it shows are those of `cosydb report --format json` and
`cosydb cube --format json` on the same database. The test keeps a screenshot."""

import json
import re

import pytest
from typer.testing import CliRunner

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
