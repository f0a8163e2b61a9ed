"""The report as one self-contained HTML file (`cosydb report --format html -o report.html`):
the ranked problems, the severity cube to browse as CUBE does (metric tree, call tree of the
metric chosen, its value on every location: a collapsed call path with its callees', an
expanded one alone; each metric coloured on its own scale), a per-rank plot of the largest
wait states (plotly, its JavaScript inlined: the page needs no network), the root causes
and the description and diagnosis of each property evaluated on the experiment. Every
number shown is the report's (the same run as ``--format json``), each with its exact value
in a ``data-value`` attribute."""

from __future__ import annotations

import os
from pathlib import Path

import jinja2

from . import catalog as catalog_mod
from . import database, names, outputs, report_view
from .errors import CosyError

#: wait-state metrics in the per-rank plot (the largest)
PLOTTED = 6

SUFFIX = "html"
NEEDS_CUBE = True  # the report's severity cube: report.run(..., cube=True)


def write(db: str | os.PathLike, result: dict, output: str | os.PathLike, view=None) -> str:
    """``cosydb report --format html -o output``: ``write_html``, and the line said."""
    written = write_html(db, result, output)
    return f"wrote {output}: {written['problems']} problems, the severity cube of {written['metrics']} metrics"


def write_html(db: str | os.PathLike, result: dict, output: str | os.PathLike) -> dict:
    """Write the report ``result`` (``cosydb.report.run`` on ``db`` with ``cube=True``: the
    severity cube of its results, never one read back from the database, which an older
    report may have written) to ``output`` (atomically); returns the counts of what the
    page holds. Only the experiment's loaded tables (call paths, locations) are read."""
    root, output = Path(db), outputs.checked(output, "report.html")
    eid = result["experiment"]["experiment_id"]
    if "cube" not in result:
        raise CosyError(root, "the HTML page needs the report's severity cube: cosydb.report.run(..., cube=True)")
    catalog = catalog_mod.load()
    metrics, cells = result["cube"]["metrics"], [c for c in result["cube"]["cells"] if c[3] != 0]
    con = database.connect(root)
    try:
        callpaths = con.execute(
            "SELECT c.callpath_id, c.parent_id, r.name FROM callpaths c "
            "JOIN regions r USING (experiment_id, region_id) WHERE c.experiment_id = ? ORDER BY c.path",
            [eid],
        ).fetchall()
        locations = con.execute(
            "SELECT location_id, rank, thread FROM locations WHERE experiment_id = ? AND location_type = 'CPU_THREAD' "
            "ORDER BY rank, thread",
            [eid],
        ).fetchall()
        ranks = dict(con.execute("SELECT location_id, rank FROM locations WHERE experiment_id = ?", [eid]).fetchall())
    finally:
        con.close()
    waits = wait_bars(result["cube"], ranks)
    # the glossary: the properties evaluated on this experiment (listed in its results), not the
    # catalog's (no HPF or cache entry for a trace without them); a metric of the cube says
    # what it is on hover
    shown = {p["property"] for p in result["problems"]} | {
        r["property"] for r in result["results"] if r["status"] == "evaluated"
    }
    about = {
        name: dict(info=catalog[name].info, description=catalog[name].description, diagnosis=catalog[name].diagnosis)
        for name in sorted(shown)
        if name in catalog
    }
    cube = dict(
        metrics=[dict(name=m["metric"], parent=m["parent"], unit=m["unit"], info=m["info"]) for m in metrics],
        # region names as the terminal shows them (C++ demangled, without parameters), in full on hover
        callpaths=[dict(id=c, parent=p, name=names.short(n), full=names.demangle(n)) for c, p, n in callpaths],
        locations=[
            dict(id=loc, label=f"{rank}" if not thread else f"{rank}:{thread}") for loc, rank, thread in locations
        ],
        cells=[[m, c, loc, v] for m, c, loc, v, _ in cells],
    )
    page = _template().render(
        result=result,
        phases=report_view.phases_text(result),
        main=_main_work(result),
        about=about,
        cube=cube,
        plot=_wait_plot(waits),
        seconds=_seconds,
        ranks=report_view.locations_text,  # as the terminal says them
        same=report_view.same_text,
        path=names.path,  # call paths demangled as the terminal shows them ...
        full=lambda callpath: names.path(callpath, "full"),  # ... and in full, on hover
    )
    with outputs.replaced(output) as tmp:
        tmp.write_text(page)
    return dict(problems=len(result["problems"]), cells=len(cells), metrics=len(metrics))


def _main_work(result: dict) -> dict | None:
    """When the report suggests the main work as the rank basis (``run_phases``): its name
    and per problem of time its value / the region's time over all locations, the severity
    ``cosydb report --rank-basis REGION`` gives it."""
    phases = result.get("phases")
    if not phases or not phases["main_region_suggested"] or report_view.phases_text(result) is None:
        return None
    region, total = phases["main_region"], phases["main_region_s"]
    shares = {p["property"]: p["value"] / total if p["unit"] == "s" else None for p in result["problems"]}
    return dict(name=names.short(region), full=names.demangle(region), shares=shares)


def wait_bars(cube: dict, ranks: dict[int, int]) -> list[tuple]:
    """(metric, rank, seconds) of the per-rank plot: the wait-state metrics of the report's
    severity ``cube`` (``report.run(..., cube=True)``), each without its sub-metrics
    (exclusive), which are disjoint, so that a rank's bars add up to the time it waited (a
    part such as mpi_latesender_wo, or a property measuring the same wait another way, is
    never stacked on its whole); ``ranks``: each location's rank (its threads summed)."""
    waits = {m["metric"] for m in cube["metrics"] if m["wait_state"]}
    summed: dict[tuple, float] = {}
    for metric, _, location, _, exclusive in cube["cells"]:
        if metric in waits and exclusive > 0 and location in ranks:
            key = (metric, ranks[location])
            summed[key] = summed.get(key, 0.0) + exclusive
    return [(metric, rank, value) for (metric, rank), value in summed.items()]


def _wait_plot(waits: list[tuple]) -> str:
    """A stacked bar per rank of the largest wait-state metrics (``wait_bars``, seconds) and one of
    the others together, as a plotly figure with plotly.js inlined; '' when nothing waited."""
    if not waits:
        return ""
    import plotly.graph_objects as go
    import plotly.io as pio

    totals: dict[str, float] = {}
    for prop, _, value in waits:
        totals[prop] = totals.get(prop, 0.0) + value
    top = sorted(totals, key=totals.get, reverse=True)[:PLOTTED]
    ranks = sorted({rank for _, rank, _ in waits})
    # the smaller wait states in one bar of their own, so that a rank's stack is all it waited
    other = "other wait states"
    groups = [*top, other] if set(totals) - set(top) else top
    stacked: dict[tuple[str, int], float] = {}  # (group, rank): seconds, summed in the order of waits
    for prop, rank, value in waits:
        key = (prop if prop in top else other, rank)
        stacked[key] = stacked.get(key, 0) + value
    figure = go.Figure(
        [go.Bar(name=name, x=[str(r) for r in ranks], y=[stacked.get((name, r), 0) for r in ranks]) for name in groups]
    )
    figure.update_layout(
        barmode="stack",
        xaxis_title="rank",
        yaxis_title="seconds",
        height=360,
        margin=dict(l=60, r=20, t=20, b=50),
        legend=dict(orientation="h", y=-0.25),
    )
    return pio.to_html(figure, include_plotlyjs=True, full_html=False, div_id="wait-plot")


def _seconds(value: float | None, unit: str = "s") -> str:
    """A value for the page: seconds with a unit prefix (0.674968 s, 12.3 ms), else as is."""
    if value is None:
        return "—"
    if unit != "s":
        return f"{value:,.6g} {unit}"
    for scale, prefix in ((1, "s"), (1e-3, "ms"), (1e-6, "µs"), (1e-9, "ns")):
        if abs(value) >= scale:
            return f"{value / scale:.6g} {prefix}"
    return f"{value:.3g} s"


def _template() -> jinja2.Template:
    """The page's template, every value escaped for HTML (names from a trace are text, never
    markup); ``tojson`` writes the cube's JSON with ``<``, ``>``, ``&`` and ``'`` as ``\\uXXXX``
    and (ASCII only) U+2028/9 too, so that no name ends the ``<script>`` it is in."""
    env = jinja2.Environment(loader=jinja2.PackageLoader("cosydb", "."), autoescape=True)
    env.policies["json.dumps_kwargs"] = {"separators": (",", ":")}
    return env.get_template("report.html.j2")
