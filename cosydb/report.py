"""``cosydb report``: evaluate the catalog on one experiment and rank what it finds."""

from __future__ import annotations

import difflib
import json
import os
from pathlib import Path

from . import catalog as catalog_mod
from . import database, engine, info, names, resources
from .errors import CosyError

#: Fields of a result row in the JSON report, in order (documented in the README).
JSON_FIELDS = ("property", "parent", "callpath", "region", "location", "thread", "condition_id", "condition",
               "confidence", "severity", "value_s", "value", "unit", "is_problem", "details", "status")


def choose_experiment(con, root: Path, wanted: str | None) -> dict:
    """The experiment named or numbered ``wanted``; by default the latest trace (a profile or
    summary input loaded later does not replace it), or the latest experiment if none is a trace."""
    rows = con.execute("SELECT * FROM experiments ORDER BY experiment_id").to_arrow_table().to_pylist()
    if not rows:
        raise CosyError(root, "holds no experiment")
    if wanted is None:
        traces = [row for row in rows if not row["is_profile"]]
        return (traces or rows)[-1]
    for row in rows:
        if row["name"] == wanted or str(row["experiment_id"]) == wanted:
            return row
    raise CosyError(root, f"no experiment '{wanted}' (have: {', '.join(r['name'] for r in rows)})")


def _unknown(what: str, name: str, known) -> CosyError:
    close = difflib.get_close_matches(name, sorted(set(known)), n=3, cutoff=0.5)
    return CosyError(what, f"'{name}' is unknown" + (f"; did you mean {', '.join(close)}?" if close else ""))


def _check_selection(catalog: dict, properties: list[str] | None, params: dict) -> None:
    """Unknown property or parameter names, and patterns asked for as properties, are user errors."""
    for name in properties or []:
        if name not in catalog:
            raise _unknown("--property", name, catalog)
        if catalog[name].kind == "pattern":
            raise CosyError("--property", f"{name} is a pattern (the matches its properties aggregate), not a "
                                          f"ranked property; query its rows with: cosydb sql DB "
                                          f"\"SELECT * FROM {{{{ ref('{name}') }}}}\"")
    declared = {p for prop in catalog.values() for p in prop.params}
    for name in params:
        if name not in declared:
            raise _unknown("--param", name, declared)


def _region(con, exp: dict, name: str | None, option: str) -> str | None:
    """The region name as stored for ``name`` given mangled, demangled or as its short form."""
    if name is None:
        return None
    stored = [n for n, in con.execute("SELECT DISTINCT name FROM regions WHERE experiment_id = ?",
                                      [exp["experiment_id"]]).fetchall()]
    if name in stored:
        return name
    for mode in ("full", "short"):
        hits = sorted({n for n in stored if names.display(n, mode) == name})
        if len(hits) == 1:
            return hits[0]
        if hits:
            raise CosyError(option, f"'{name}' names {len(hits)} regions of experiment '{exp['name']}': "
                                    + ", ".join(names.demangle(n) for n in hits[:4]))
    raise _unknown(option, name, stored + [names.short(n) for n in stored])


def run(db: str | os.PathLike, experiment: str | None = None, threshold: float = 0.001,
        rank_basis: str | None = None, region: str | None = None, properties: list[str] | None = None,
        properties_dirs: list[Path] | tuple = (), params: dict | None = None, baseline: str | None = None,
        memory_limit: str | None = None, threads: int | None = None) -> dict:
    """Evaluate, store ``property_results`` and return the report as a dict: ``problems`` (ranked,
    see ``rank``), ``results`` (the rows whose condition holds above the threshold and those not
    evaluable, see ``JSON_FIELDS``), ``not_evaluable`` (reason -> properties) and ``warnings``.
    ``baseline``: the sequential experiment (name or id) of the properties comparing two runs.
    With ``properties`` only their rows are replaced in ``property_results``. ``memory_limit``
    and ``threads``: DuckDB's resources (see ``resources``)."""
    root = Path(db)
    catalog = catalog_mod.load(properties_dirs)
    params = dict(params or {})
    _check_selection(catalog, properties, params)
    con = database.connect(root)
    try:
        resources.apply(con, memory_limit, threads)
        exp = choose_experiment(con, root, experiment)
        base = choose_experiment(con, root, baseline) if baseline is not None else None
        if base is not None and base["experiment_id"] == exp["experiment_id"]:
            raise CosyError(root, f"--baseline '{baseline}' is the experiment analysed")
        rank_basis = _region(con, exp, rank_basis, "--rank-basis")
        region = _region(con, exp, region, "--region")
        values = dict(params, p_rank_basis=rank_basis)
        if region is not None:
            values["p_region"] = region
        selected = list(properties) if properties else None
        status = engine.evaluate(con, catalog, exp["experiment_id"], values,
                                 sorted(set(selected) | {"rank_basis"}) if selected else None,
                                 base["experiment_id"] if base else None)
        table = engine.results(con, catalog, exp["experiment_id"], status, threshold, rank_basis)
        stored = {database.RESULTS_TABLE: table}
        if status.get("time_cube") == "evaluated":
            stored[database.CUBE_TABLE] = engine.cube(con)
        others = con.execute("SELECT name, is_profile FROM experiments WHERE experiment_id <> ? ORDER BY experiment_id",
                             [exp["experiment_id"]]).fetchall()
        warnings = info.warnings(con, exp["experiment_id"])
    finally:
        con.close()
    kept, not_stored = [], None
    try:
        kept = engine.store(root, exp["experiment_id"], stored,
                            replace_properties=[n for n in status if catalog[n].kind == "property"] if selected else None)
    except OSError as error:  # e.g. a read-only database: the analysis is still shown
        not_stored = f"{error.filename or root}: {error.strerror or error}"
    rows = table.to_pylist()
    if selected:
        rows = [r for r in rows if r["property"] in selected]
    problems = rank(rows, catalog, threshold)
    listed = [r for r in rows if r["status"] != "evaluated" or (r["condition"] and (threshold <= 0 or r["is_problem"]))]
    not_evaluable: dict[str, list[str]] = {}
    for r in rows:
        if r["status"] != "evaluated":
            not_evaluable.setdefault(r["status"].removeprefix("not evaluable: "), []).append(r["property"])
    return dict(
        experiment={k: exp[k] for k in ("experiment_id", "name", "source_path", "format", "number_of_events",
                                        "number_of_locations", "is_profile")}
        | dict(threshold=threshold, rank_basis=rank_basis, region=region,
               baseline=base["name"] if base else None,
               other_experiments=[dict(name=n, is_profile=p) for n, p in others],
               kept_results_of=kept, not_stored=not_stored),
        bottleneck=f"{problems[0]['property']} at {problems[0]['where']}" if problems else None,
        problems=problems,
        results=[_json_row(r) for r in listed],
        not_evaluable=not_evaluable,
        warnings=warnings,
    )


def rank(rows: list[dict], catalog: dict, threshold: float) -> list[dict]:
    """The problems of one evaluation: one entry per property, most severe first.

    A property's places are its all-process rows whose condition holds, at their most
    specific call paths (a wait state's rows are exclusive; another property's row at
    ``main`` is the sum of the rows below it, so only its deepest rows count). Wait states
    (``wait_state: true``) explain where time went: a wait state holding where its ancestor
    property holds is part of that row (``parts``:
    "of which"), and the other properties holding at a wait state's call path (or, for a
    function as a whole, at its calls) are listed on that row (``also``) instead of on their
    own. An entry's value and severity are the sums over its places (disjoint call paths);
    it is a problem when its severity exceeds ``threshold``. Each entry and place carries
    its locations, most affected first."""
    candidates = [r for r in rows if r["status"] == "evaluated" and r["condition"] and r["location_id"] is None
                  and r["property"] in catalog and (r["severity"] or 0) > 0]
    # a wait state's rows are exclusive (each call path its own waiting); another property's
    # row at a call path holds the rows below it, so only its deepest rows count
    above_a_row = {(r["property"], r["callpath"][:i]) for r in candidates if r["callpath"] is not None
                   for i, ch in enumerate(r["callpath"]) if ch == "/"}
    leaves = [r for r in candidates if r["callpath"] is None or catalog[r["property"]].wait_state
              or (r["property"], r["callpath"]) not in above_a_row]
    located: dict[tuple, list] = {}
    for r in rows:
        if r["status"] == "evaluated" and r["location_id"] is not None and r["condition"] and r["value"]:
            key = (r["property"], r["callpath"], r["region"], r["condition_id"])
            located.setdefault(key, []).append(dict(rank=r["rank"], thread=r["thread"], value=r["value"]))

    def place(r: dict) -> dict:
        return dict(property=r["property"], where=where(r), callpath=r["callpath"], region=r["region"],
                    condition_id=r["condition_id"], value=r["value"], severity=r["severity"],
                    confidence=r["confidence"], unit=r["unit"],
                    locations=_most_affected(located.get((r["property"], r["callpath"], r["region"],
                                                          r["condition_id"]), [])),
                    parts=[], also=[])

    places: list[dict] = []
    waits_at: dict[str, list[dict]] = {}
    for r in sorted((r for r in leaves if catalog[r["property"]].wait_state),
                    key=lambda r: (len(catalog_mod.ancestors(catalog, r["property"])), -r["severity"])):
        parents = catalog_mod.ancestors(catalog, r["property"])
        owner = next((p for p in waits_at.get(where(r), []) if p["property"] in parents), None)
        if owner is not None:
            owner["parts"].append(place(r))
            continue
        places.append(place(r))
        waits_at.setdefault(where(r), []).append(places[-1])
    # the others, most severe first: on the wait state at their place, else on the most severe
    # other property already there, else a place of their own
    others_at: dict[str, dict] = {}
    for r in sorted((r for r in leaves if not catalog[r["property"]].wait_state), key=lambda r: -r["severity"]):
        hosts = waits_at.get(r["callpath"], []) if r["callpath"] is not None else [
            p for p in places if p["callpath"] is not None and p["region"] == r["region"]
            and catalog[p["property"]].wait_state]
        if hosts:
            max(hosts, key=lambda p: p["severity"])["also"].append(place(r))
        elif where(r) in others_at:
            others_at[where(r)]["also"].append(place(r))
        else:
            places.append(place(r))
            others_at[where(r)] = places[-1]

    entries: dict[str, dict] = {}
    for p in sorted(places, key=lambda p: -p["severity"]):
        e = entries.setdefault(p["property"], dict(
            property=p["property"], info=catalog[p["property"]].info, unit=p["unit"], value=0.0, severity=0.0,
            where=p["where"], places=[], parts={}, also=[]))
        e["value"] += p["value"]
        e["severity"] += p["severity"]
        e["places"].append(p)
        for part in p["parts"]:
            e["parts"][part["property"]] = e["parts"].get(part["property"], 0.0) + part["value"]
    for e in entries.values():
        e["also"] = [a["property"] for a in e["places"][0]["also"]]  # at the place shown
        e["locations"] = _most_affected([x for p in e["places"] for x in p["locations"]])
        e["parts"] = [dict(property=k, value=v) for k, v in sorted(e["parts"].items(), key=lambda kv: -kv[1])]
    return sorted((e for e in entries.values() if e["severity"] > threshold),
                  key=lambda e: (-e["severity"], e["property"]))


def _most_affected(located: list[dict]) -> list[dict]:
    """Values per (rank, thread) summed, largest first."""
    total: dict[tuple, float] = {}
    for x in located:
        key = (x["rank"], x["thread"] or 0)
        total[key] = total.get(key, 0.0) + x["value"]
    return [dict(rank=k[0], thread=k[1], value=v) for k, v in sorted(total.items(), key=lambda kv: (-kv[1], kv[0]))]


def cube(db: str | os.PathLike, experiment: str | None = None) -> dict:
    """Evaluate the severity cube (pattern ``time_cube``), store it as ``severity_cube`` and
    return its metric tree in order: metric, parent, depth, unit, inclusive and exclusive
    totals over all call paths and locations, and the call path with the largest value."""
    root = Path(db)
    con = database.connect(root)
    try:
        resources.apply(con)
        exp = choose_experiment(con, root, experiment)
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


def where(row: dict) -> str:
    """The context of a result row: its call path, or for a function as a whole its region."""
    if row["callpath"] is not None:
        return row["callpath"]
    return f"{row['region']} (all calls)" if row["region"] is not None else ""


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
    runs = [run(db, name, 0.0, properties=properties, properties_dirs=properties_dirs, params=params)
            for name in (a, b)]
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
