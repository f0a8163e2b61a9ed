"""``cosydb report``: evaluate the catalog on one experiment and rank what it finds."""

from __future__ import annotations

import json
import os
from pathlib import Path

from . import catalog as catalog_mod
from . import database, engine
from .errors import CosyError

#: Fields of a result row in the JSON report, in order (documented in the README).
JSON_FIELDS = ("property", "parent", "callpath", "region", "location", "thread", "condition_id", "condition",
               "confidence", "severity", "value_s", "value", "unit", "is_problem", "details", "status")


def _experiment(con, root: Path, wanted: str | None) -> dict:
    rows = con.execute("SELECT * FROM experiments ORDER BY experiment_id").to_arrow_table().to_pylist()
    if not rows:
        raise CosyError(root, "holds no experiment")
    if wanted is None:
        return rows[-1]
    for row in rows:
        if row["name"] == wanted or str(row["experiment_id"]) == wanted:
            return row
    raise CosyError(root, f"no experiment '{wanted}' (have: {', '.join(r['name'] for r in rows)})")


def run(db: str | os.PathLike, experiment: str | None = None, threshold: float = 0.01,
        rank_basis: str | None = None, region: str | None = None, properties: list[str] | None = None,
        properties_dirs: list[Path] | tuple = (), params: dict | None = None, baseline: str | None = None) -> dict:
    """Evaluate, store ``property_results`` and return the report as a dict (see ``JSON_FIELDS``).
    ``baseline``: the sequential experiment (name or id) of the properties comparing two runs."""
    root = Path(db)
    catalog = catalog_mod.load(properties_dirs)
    con = database.connect(root)
    try:
        exp = _experiment(con, root, experiment)
        base = _experiment(con, root, baseline) if baseline is not None else None
        if base is not None and base["experiment_id"] == exp["experiment_id"]:
            raise CosyError(root, f"--baseline '{baseline}' is the experiment analysed")
        values = dict(params or {}, p_rank_basis=rank_basis)
        if region is not None:
            values["p_region"] = region
        selected = list(properties) if properties else None
        status = engine.evaluate(con, catalog, exp["experiment_id"], values,
                                 sorted(set(selected) | {"rank_basis"}) if selected else None,
                                 base["experiment_id"] if base else None)
        if status.get("rank_basis_paths") == "evaluated":
            if not con.execute("SELECT count(*) FROM prop_rank_basis_paths").fetchone()[0]:
                raise CosyError(root, f"rank-basis region '{rank_basis}' not found in experiment '{exp['name']}'")
        table = engine.results(con, catalog, exp["experiment_id"], status, threshold, rank_basis)
        stored = {database.RESULTS_TABLE: table}
        if status.get("time_cube") == "evaluated":
            stored[database.CUBE_TABLE] = engine.cube(con)
    finally:
        con.close()
    engine.store(root, exp["experiment_id"], stored)
    rows = [r for r in table.to_pylist() if _listed(r, threshold)]
    if selected:
        rows = [r for r in rows if r["property"] in selected]
    problems = [r for r in rows if r["is_problem"]]
    bottleneck = max(problems, key=lambda r: r["severity"]) if problems else None
    return dict(
        experiment={k: exp[k] for k in ("experiment_id", "name", "source_path", "format", "number_of_events",
                                        "number_of_locations")}
        | dict(threshold=threshold, rank_basis=rank_basis, region=region,
               baseline=base["name"] if base else None),
        bottleneck=f"{bottleneck['property']} at {where(bottleneck)}" if bottleneck else None,
        results=[_json_row(r) for r in rows],
    )


def cube(db: str | os.PathLike, experiment: str | None = None) -> dict:
    """Evaluate the severity cube (pattern ``time_cube``), store it as ``severity_cube`` and
    return its metric tree in order: metric, parent, depth, unit, inclusive and exclusive
    totals over all call paths and locations, and the call path with the largest value."""
    root = Path(db)
    con = database.connect(root)
    try:
        exp = _experiment(con, root, experiment)
        status = engine.evaluate(con, catalog_mod.load(), exp["experiment_id"], {}, ["time_cube"])
        if status["time_cube"] != "evaluated":
            raise CosyError(root, f"experiment '{exp['name']}': severity cube {status['time_cube']}")
        table = engine.cube(con)
        tree = con.execute("SELECT metric, parent, unit FROM prop_metric_tree").fetchall()  # insertion order
        totals = {m: (i, x, p) for m, i, x, p in con.execute("""
            WITH per_callpath AS (
                SELECT metric, callpath_id, sum(inclusive) AS inclusive, sum(exclusive) AS exclusive
                FROM prop_time_cube GROUP BY ALL
            ), totals AS (
                SELECT metric, sum(inclusive) AS inclusive, sum(exclusive) AS exclusive,
                       arg_max(callpath_id, inclusive) AS top_callpath_id
                FROM per_callpath GROUP BY metric
            )
            SELECT t.metric, t.inclusive, t.exclusive, c.path
            FROM totals t
            LEFT JOIN callpaths c ON c.experiment_id = ? AND c.callpath_id = t.top_callpath_id""",
                                                                   [exp["experiment_id"]]).fetchall()}
    finally:
        con.close()
    engine.store(root, exp["experiment_id"], {database.CUBE_TABLE: table})
    children: dict = {}
    for metric, parent, unit in tree:
        children.setdefault(parent, []).append((metric, unit))
    metrics: list[dict] = []

    def walk(parent, depth):
        for metric, unit in children.get(parent, []):
            inclusive, exclusive, top = totals.get(metric, (0.0, 0.0, None))
            metrics.append(dict(metric=metric, parent=parent, depth=depth, unit=unit, inclusive=inclusive,
                                exclusive=exclusive, top_callpath=top))
            walk(metric, depth + 1)

    walk(None, 0)
    return dict(experiment={k: exp[k] for k in ("experiment_id", "name")}, metrics=metrics)


def _listed(row: dict, threshold: float) -> bool:
    """Problems (condition holds, severity above the threshold); with threshold 0 every row whose
    condition holds; and every property that could not be evaluated."""
    if row["status"] != "evaluated":
        return True
    return bool(row["condition"]) and (threshold <= 0 or row["is_problem"])


def where(row: dict) -> str:
    """The context of a result row: its call path, or for a function as a whole its region."""
    if row["callpath"] is not None:
        return row["callpath"]
    return f"{row['region']} (all calls)" if row["region"] is not None else ""


def ranks_text(ranks: list[int]) -> str:
    """[0, 1, 2, 5] -> '0-2,5'."""
    ranks = sorted(set(ranks))
    parts, start = [], None
    for i, r in enumerate(ranks):
        if start is None:
            start = r
        if i + 1 == len(ranks) or ranks[i + 1] != r + 1:
            parts.append(str(start) if start == r else f"{start}-{r}")
            start = None
    return ",".join(parts)


def locations_text(locations: list[tuple]) -> str:
    """(rank, thread) pairs -> '0-3' for master threads, '0-3:1' for thread 1 of ranks 0-3, ..."""
    by_thread: dict = {}
    for rank, thread in locations:
        by_thread.setdefault(thread or 0, []).append(rank)
    return " ".join(ranks_text(ranks) + (f":{thread}" if thread else "") for thread, ranks in sorted(by_thread.items()))


def _json_row(row: dict) -> dict:
    out = dict(row, location=row["rank"] if row["rank"] is not None else row["location_id"],
               value_s=row["value"] if row["unit"] == "s" else None)
    out["details"] = json.loads(row["details"]) if row["details"] else None
    return {k: out[k] for k in JSON_FIELDS}


#: Fields of a row of ``cosydb diff``, in order.
DIFF_FIELDS = ("property", "callpath", "region", "condition_id", "unit", "value_a", "value_b", "change",
               "relative_change", "severity_a", "severity_b")


def diff(db: str | os.PathLike, a: str, b: str, properties: list[str] | None = None,
         properties_dirs: list[Path] | tuple = (), params: dict | None = None) -> dict:
    """Evaluate the catalog on experiments ``a`` and ``b`` (storing both results) and compare
    them per property and call path (all-process rows whose condition holds in either; rows
    of several conditions, e.g. variables, match by condition_id): value in a and b,
    change = b - a and relative change = change / a (NULL when a is 0)."""
    runs = [run(db, experiment, 0.0, properties=properties, properties_dirs=properties_dirs, params=params)
            for experiment in (a, b)]
    ids = [r["experiment"]["experiment_id"] for r in runs]
    con = database.connect(db)
    try:
        rows = con.execute("""
            WITH r AS (SELECT *, count(*) OVER (PARTITION BY experiment_id, property, callpath, region) AS n
                       FROM property_results WHERE status = 'evaluated' AND location_id IS NULL),
                 x AS (SELECT * FROM r WHERE experiment_id = $a),
                 y AS (SELECT * FROM r WHERE experiment_id = $b)
            SELECT coalesce(x.property, y.property) AS property, coalesce(x.callpath, y.callpath) AS callpath,
                   coalesce(x.region, y.region) AS region, coalesce(y.condition_id, x.condition_id) AS condition_id,
                   coalesce(x.unit, y.unit) AS unit, x.value AS value_a, y.value AS value_b,
                   coalesce(y.value, 0) - coalesce(x.value, 0) AS change,
                   (coalesce(y.value, 0) - x.value) / nullif(x.value, 0) AS relative_change,
                   x.severity AS severity_a, y.severity AS severity_b
            FROM x FULL JOIN y
                ON x.property = y.property AND x.callpath IS NOT DISTINCT FROM y.callpath
                AND x.region IS NOT DISTINCT FROM y.region
                -- rows of one condition (e.g. a variable) match by it; a property's only row on both sides matches
                AND (x.condition_id IS NOT DISTINCT FROM y.condition_id OR (x.n = 1 AND y.n = 1))
            WHERE coalesce(x.condition, false) OR coalesce(y.condition, false)
            ORDER BY abs(change) DESC, property, callpath""", {"a": ids[0], "b": ids[1]}).fetchall()
    finally:
        con.close()
    return dict(a=runs[0]["experiment"]["name"], b=runs[1]["experiment"]["name"],
                rows=[dict(zip(DIFF_FIELDS, r)) for r in rows])
