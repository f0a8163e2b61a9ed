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
from . import database, engine, names, outputs, report_view

#: wait-state metrics in the per-rank plot (the largest)
PLOTTED = 6

SUFFIX = "html"


def write(db: str | os.PathLike, result: dict, output: str | os.PathLike, view=None) -> str:
    """``cosydb report --format html -o output``: ``write_html``, and the line said."""
    written = write_html(db, result, output)
    return f"wrote {output}: {written['problems']} problems, the severity cube of {written['metrics']} metrics"


def write_html(db: str | os.PathLike, result: dict, output: str | os.PathLike) -> dict:
    """Write the report ``result`` (``cosydb.report.run`` on ``db``, which stored its severity
    cube) to ``output`` (atomically); returns the counts of what the page holds."""
    root, output = Path(db), outputs.checked(output, "report.html")
    eid = result["experiment"]["experiment_id"]
    catalog = catalog_mod.load()
    con = database.connect(root)
    try:
        metrics = (
            engine.evaluate(con, catalog, eid, {}, ["metric_tree"])
            .query("SELECT metric, parent, unit FROM {{ ref('metric_tree') }} ORDER BY position")
            .fetchall()
        )
        cells = con.execute(
            "SELECT metric, callpath_id, location_id, inclusive FROM severity_cube "
            "WHERE experiment_id = ? AND inclusive != 0",
            [eid],
        ).fetchall()
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
        waits = wait_bars(con, eid)
    finally:
        con.close()
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
        metrics=[dict(name=m, parent=p, unit=u, info=catalog[m].info if m in catalog else None) for m, p, u in metrics],
        # region names as the terminal shows them (C++ demangled, without parameters), in full on hover
        callpaths=[dict(id=c, parent=p, name=names.short(n), full=names.demangle(n)) for c, p, n in callpaths],
        locations=[
            dict(id=loc, label=f"{rank}" if not thread else f"{rank}:{thread}") for loc, rank, thread in locations
        ],
        cells=[[m, c, loc, v] for m, c, loc, v in cells],
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


def wait_bars(con, experiment_id: int) -> list[tuple]:
    """(metric, rank, seconds) of the per-rank plot: the wait-state metrics of the stored
    severity cube, each without its sub-metrics (exclusive), which are disjoint, so that a
    rank's bars add up to the time it waited (a part such as mpi_latesender_wo, or a property
    measuring the same wait another way, is never stacked on its whole)."""
    return con.execute(
        """SELECT s.metric, l.rank, sum(s.exclusive) AS value
        FROM severity_cube s
        JOIN property_catalog c ON c.experiment_id = s.experiment_id AND c.name = s.metric
        JOIN locations l ON l.experiment_id = s.experiment_id AND l.location_id = s.location_id
        WHERE s.experiment_id = ? AND c.wait_state AND s.exclusive > 0
        GROUP BY ALL""",
        [experiment_id],
    ).fetchall()


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
    groups = [(prop, {prop}) for prop in top] + [("other wait states", set(totals) - set(top))]
    figure = go.Figure(
        [
            go.Bar(
                name=name,
                x=[str(r) for r in ranks],
                y=[sum(v for p, r, v in waits if p in members and r == rank) for rank in ranks],
            )
            for name, members in groups
            if members
        ]
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
