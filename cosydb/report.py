"""``cosydb report``: evaluate the catalog on one experiment and rank what it finds."""

from __future__ import annotations

import concurrent.futures
import contextlib
import datetime as dt
import hashlib
import json
import os
import queue
import shlex
from dataclasses import dataclass
from pathlib import Path

import duckdb
import pyarrow as pa
import pyarrow.parquet as pq

from . import catalog as catalog_mod
from . import database, engines, evaluator, info, names, resources, tables
from .errors import CosyError, close_names


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
    close = close_names(name, known)
    return CosyError(what, f"'{name}' is unknown" + (f"; did you mean {', '.join(close)}?" if close else ""))


def _check_selection(catalog: dict, properties: list[str] | None, params: dict) -> None:
    """Unknown property or parameter names, and patterns asked for as properties, are user errors."""
    for name in properties or []:
        if name not in catalog:
            raise _unknown("--property", name, catalog)
        if catalog[name].kind == "pattern":
            raise CosyError(
                "--property",
                f"{name} is a pattern (the matches its properties aggregate), not a "
                f"ranked property; query its rows with: cosydb sql DB "
                f"\"SELECT * FROM {{{{ ref('{name}') }}}}\"",
            )
    declared = {p for prop in catalog.values() for p in prop.params}
    for name in params:
        if name not in declared:
            raise _unknown("--param", name, declared)


def _region(con, exp: dict, name: str | None, option: str) -> str | None:
    """The region name as stored for ``name`` given mangled, demangled or as its short form."""
    if name is None:
        return None
    stored = [
        n
        for (n,) in con.execute(
            "SELECT DISTINCT name FROM regions WHERE experiment_id = ?", [exp["experiment_id"]]
        ).fetchall()
    ]
    if name in stored:
        return name
    for mode in ("full", "short"):
        hits = sorted({n for n in stored if names.display(n, mode) == name})
        if len(hits) == 1:
            return hits[0]
        if hits:
            raise CosyError(
                option,
                f"'{name}' names {len(hits)} regions of experiment '{exp['name']}': "
                + ", ".join(names.demangle(n) for n in hits[:4]),
            )
    raise _unknown(option, name, stored + [names.short(n) for n in stored])


def run(
    db: str | os.PathLike,
    experiment: str | None = None,
    threshold: float = 0.001,
    rank_basis: str | None = None,
    region: str | None = None,
    properties: list[str] | None = None,
    properties_dirs: list[Path] | tuple = (),
    params: dict | None = None,
    baseline: str | None = None,
    memory_limit: str | None = None,
    threads: int | None = None,
    engine_name: str = "duckdb",
    spark_master: str | None = None,
    fresh: bool = False,
    cube: bool = False,
    rows: bool = True,
) -> dict:
    """Evaluate, store ``property_results`` (and ``property_catalog``, ``severity_cube``) and
    return the report as a dict: ``problems`` (the view ``problems``), ``results`` (the view
    ``report_rows``: the rows listed), ``critical_path`` (the view ``critical_path_summary``:
    the critical path's activities, most time first), ``root_causes`` (the view
    ``root_cause_summary``: per class of wait state, the call paths and locations whose
    delay caused it, largest first), ``phases`` (the view ``run_phases``: the share of the
    run in MPI_Init and MPI_Finalize and the region of the main work), ``not_evaluable``
    (reason -> properties) and ``warnings``. ``baseline``: the sequential experiment (name or id) of
    the properties comparing two runs. With ``properties`` only their rows are replaced in
    ``property_results``. ``memory_limit`` and ``threads``: DuckDB's resources.
    ``engine_name='spark'``: the catalog is evaluated by Spark SQL on ``spark_master``
    (default local[*]); DuckDB answers the rest.

    The stored rows of the same evaluation (catalog files, parameters, baseline and engine
    alike: table ``property_evaluation``) are read instead of evaluating again, their
    problems flagged for ``threshold``; ``fresh`` evaluates in any case. ``cube``: also the
    severity cube of these results (``cube``: its ``metrics`` in tree order and its non-zero
    ``cells``), as the HTML page shows it, never read from a file an older report wrote.
    ``rows=False``: the rows listed are not read (``results`` is None), as the problem list
    does not show them (at a thousand ranks, an eighth of the time of a report that reads
    stored results and a third of its memory)."""
    root = Path(db)
    catalog, files = catalog_mod.load_fingerprinted(properties_dirs)
    params = dict(params or {})
    _check_selection(catalog, properties, params)
    engines.check(engine_name)
    con = database.connect(root)
    try:
        resources.apply(con, memory_limit, threads, default_memory=resources.REPORT_MEMORY_LIMIT)
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
        wanted = sorted(set(selected) | {"rank_basis", "location_time"}) if selected else None
        key = _evaluation_key(files, values, base, engine_name)
        made = None if fresh else _stored(con, root, catalog, exp, base, wanted, key, threshold)
        if made is None:
            made = _evaluated(con, root, catalog, exp, base, values, wanted, key, threshold, spark_master)
            if catalog_mod.fingerprint(properties_dirs) != files:  # a file changed while it was read
                made.identity = None
        results = made.tables[database.RESULTS_TABLE]
        shown = evaluator.rows_of(results, selected) if selected else results
        parts = [part for part in DECISIONS if rows or part != "rows"]
        decided = decide(con, exp["experiment_id"], shown, made.tables[database.CATALOG_TABLE], parts)
        phases = _phases(con, root, exp, decided["phases"])
        others = con.execute(
            "SELECT name, is_profile FROM experiments WHERE experiment_id <> ? ORDER BY experiment_id",
            [exp["experiment_id"]],
        ).fetchall()
        warnings = info.warnings(con, exp["experiment_id"])
        severity_cube = _cube_in_hand(con, root, catalog, exp, made) if cube else None
    finally:
        con.close()
    kept, not_stored = [], None
    try:
        if not made.as_stored:
            kept = evaluator.store(root, exp["experiment_id"], made.tables, made.replaced, made.identity)
    except OSError as error:  # e.g. a read-only database: the analysis is still shown
        not_stored = f"{error.filename or root}: {error.strerror or error}"
    problems = decided["problems"]
    return dict(
        experiment={
            k: exp[k]
            for k in (
                "experiment_id",
                "name",
                "source_path",
                "format",
                "number_of_events",
                "number_of_locations",
                "is_profile",
            )
        }
        | dict(
            threshold=threshold,
            rank_basis=rank_basis,
            region=region,
            baseline=base["name"] if base else None,
            other_experiments=[dict(name=n, is_profile=p) for n, p in others],
            kept_results_of=kept,
            not_stored=not_stored,
        ),
        bottleneck=f"{problems[0]['property']} at {problems[0]['place']}" if problems else None,
        problems=problems,
        results=decided.get("rows"),
        critical_path=decided["critical_path"],
        root_causes=decided["root_causes"],
        not_evaluable=decided["not_evaluable"],
        phases=phases,
        warnings=warnings,
    ) | ({"cube": severity_cube} if cube else {})


def _cube_in_hand(con, root: Path, catalog: dict, exp: dict, made: _Made) -> dict:
    """The severity cube of the results ``made``: the rows its evaluation computed, or, for
    results read, the cube stored with them (an evaluation of the same key stores both);
    its metrics in tree order from the report's catalog (plug-ins included)."""
    eid = exp["experiment_id"]
    table = made.tables.get(database.CUBE_TABLE)
    if table is None:
        path = tables.REGISTRY[database.CUBE_TABLE].path(database.experiment_dir(root, eid))
        try:
            table = pq.read_table(path)
        except (OSError, pa.ArrowException):
            evaluation = evaluator.evaluate(con, catalog, eid, {}, ["time_cube"])
            table = evaluation.cube() if evaluation.evaluated("time_cube") else None
    tree = evaluator.evaluate(con, catalog, eid, {}, ["metric_tree"])
    metrics = tree.query("SELECT metric, parent, unit FROM {{ ref('metric_tree') }} ORDER BY position").fetchall()
    columns = ("metric", "callpath_id", "location_id", "inclusive", "exclusive")
    rows = [] if table is None else zip(*(table.column(c).to_pylist() for c in columns))
    cells = [row for row in rows if row[3] != 0 or row[4] != 0]
    about = {m: catalog.get(m) for m, _, _ in metrics}
    return dict(
        metrics=[
            dict(
                metric=m,
                parent=p,
                unit=u,
                info=about[m].info if about[m] else None,
                wait_state=bool(about[m] and about[m].wait_state),
            )
            for m, p, u in metrics
        ],
        cells=cells,
    )


@dataclass
class _Made:
    """A report's results, evaluated or read: the tables to store (``property_results``: the
    rows of the properties it evaluated), the properties whose stored rows they replace
    (None: all) and the ``property_evaluation`` row of the evaluation they come from (None:
    unknown); ``as_stored``: the stored files hold them already (read at their threshold)."""

    tables: dict[str, pa.Table]
    replaced: list[str] | None
    identity: pa.Table | None
    as_stored: bool = False


def _evaluation_key(files: str, values: dict, base: dict | None, engine_name: str) -> dict:
    """What decides an evaluation's rows besides the experiment: the fingerprint of the
    catalog's ``files`` and of cosydb's code, the parameter values with the baseline
    experiment (JSON), and the engine (``property_evaluation``'s columns)."""
    fingerprint = hashlib.sha256(f"{files}\0{evaluator.code_fingerprint()}".encode())
    baseline = {k: base[k] for k in ("experiment_id", "name", "load_time")} if base else None
    parameters = json.dumps(dict(values=values, baseline=baseline), sort_keys=True, default=str)
    return dict(fingerprint=fingerprint.hexdigest(), parameters=parameters, engine=engine_name)


def _identity(key: dict, entries: list[str] | None) -> pa.Table:
    """The ``property_evaluation`` row of an evaluation (``entries``: None for the whole catalog)."""
    evaluated_at = dt.datetime.now(dt.timezone.utc).isoformat(timespec="seconds")
    return tables.conform(database.EVALUATION_TABLE, [dict(key, entries=entries, evaluated_at=evaluated_at)])


def _evaluated(
    con,
    root: Path,
    catalog: dict,
    exp: dict,
    base: dict | None,
    values: dict,
    wanted,
    key: dict,
    threshold: float,
    spark_master: str | None,
) -> _Made:
    """Evaluate ``wanted`` (None: the whole catalog) on the experiment: its results and
    what to store (the severity cube where ``time_cube`` was evaluated)."""
    tables_on = engines.start(key["engine"], spark_master).tables(
        con, [(e["experiment_id"], database.experiment_dir(root, e["experiment_id"])) for e in (exp, base) if e]
    )
    try:
        evaluation = evaluator.evaluate(
            con,
            catalog,
            exp["experiment_id"],
            values,
            wanted,
            base["experiment_id"] if base else None,
            keep_patterns={"time_cube"},
            tables_on=tables_on,
        )
        stored = {
            database.RESULTS_TABLE: evaluation.results(threshold, values["p_rank_basis"]),
            database.CATALOG_TABLE: catalog_table(catalog),
        }
        if evaluation.evaluated("time_cube"):
            stored[database.CUBE_TABLE] = evaluation.cube()
    finally:
        tables_on.release()  # the rows are read: what the engine kept for them is freed
    if wanted is None:
        return _Made(stored, None, _identity(key, None))
    entries = set(evaluation.status)
    before = _stored_identity(root, exp, key)  # rows of the same evaluation stay its rows
    if before is not None:
        entries = None if before["entries"] is None else entries | set(before["entries"])
    replaced = [n for n in evaluation.status if catalog[n].kind == "property"]
    return _Made(stored, replaced, _identity(key, None if entries is None else sorted(entries)))


def _stored_identity(root: Path, exp: dict, key: dict) -> dict | None:
    """The stored ``property_evaluation`` row of the experiment if it is of an evaluation
    with this ``key``, else None."""
    path = tables.REGISTRY[database.EVALUATION_TABLE].path(database.experiment_dir(root, exp["experiment_id"]))
    try:
        rows = pq.read_table(path).to_pylist()
    except (OSError, pa.ArrowException):
        return None
    if len(rows) != 1 or any(rows[0][k] != v for k, v in key.items()):
        return None
    return rows[0]


def _stored(
    con, root: Path, catalog: dict, exp: dict, base: dict | None, wanted, key: dict, threshold: float
) -> _Made | None:
    """The stored results of an evaluation with this ``key`` that holds the entries an
    evaluation of ``wanted`` (None: the whole catalog) evaluates, flagged for ``threshold``
    as that evaluation would be; None if there are none."""
    before = _stored_identity(root, exp, key)
    if before is None or (wanted is None and before["entries"] is not None):
        return None
    replaced = None
    if wanted is not None:
        entries = evaluator.planned(con, catalog, exp["experiment_id"], wanted, base["experiment_id"] if base else None)
        if before["entries"] is not None and not set(entries) <= set(before["entries"]):
            return None
        replaced = [n for n in entries if catalog[n].kind == "property"]
    path = tables.REGISTRY[database.RESULTS_TABLE].path(database.experiment_dir(root, exp["experiment_id"]))
    try:
        rows = pq.read_table(path).cast(tables.schema(database.RESULTS_TABLE))
    except (OSError, pa.ArrowException):
        return None
    if replaced is not None:
        rows = evaluator.rows_of(rows, replaced)
    results = evaluator.flag(con, rows, threshold)
    identity = tables.conform(database.EVALUATION_TABLE, [before])
    made = {database.RESULTS_TABLE: results, database.CATALOG_TABLE: catalog_table(catalog)}
    # the whole catalog's rows at the stored threshold: nothing to write again
    return _Made(made, replaced, identity, as_stored=replaced is None and results.equals(rows))


def _phases(con, root: Path, exp: dict, rows: list[dict]) -> dict | None:
    """The run's phases (the view ``run_phases``) and ``command``: the report ranked against
    the main region (its short name where that names it alone, as ``--rank-basis`` takes it)."""
    if not rows:
        return None
    phases = rows[0]
    region, phases["command"] = phases["main_region"], None
    if region is not None:
        try:
            short = names.short(region)
            option = short if _region(con, exp, short, "--rank-basis") == region else region
        except CosyError:  # the short name names several regions
            option = region
        others = con.execute("SELECT count(*) FROM experiments WHERE experiment_id <> ?", [exp["experiment_id"]])
        chosen = ["--experiment", exp["name"]] if others.fetchone()[0] else []
        phases["command"] = shlex.join(["cosydb", "report", str(root), *chosen, "--rank-basis", option])
    return phases


def catalog_table(catalog: dict) -> pa.Table:
    """The catalog as a ``property_catalog`` table, in tree order."""
    rows = [
        dict(
            name=p.name,
            kind=p.kind,
            parent=p.parent,
            unit=p.unit,
            wait_state=p.wait_state,
            wait_class=p.wait_class,
            wait_label=p.wait_label,
            problem=p.problem,
            info=p.info,
            family=p.family,
            same_as=p.same_as,
            position=i,
            depth=depth,
            ancestors=catalog_mod.ancestors(catalog, p.name),
        )
        for i, (p, depth) in enumerate(catalog_mod.tree_order(catalog))
    ]
    return tables.conform(database.CATALOG_TABLE, rows)


#: The report's decisions, each made by a query over the views of reports/ (``decide``).
DECISIONS = {
    "problems": "SELECT * EXCLUDE (experiment_id) FROM problems ORDER BY rank",
    "rows": """
        SELECT * EXCLUDE (experiment_id, position) FROM report_rows
        ORDER BY position, severity DESC NULLS LAST, callpath, region, location_id NULLS FIRST""",
    "critical_path": """
        SELECT * EXCLUDE (experiment_id, callpath_id) FROM critical_path_summary
        ORDER BY on_path_s DESC, callpath""",
    "root_causes": """
        SELECT * EXCLUDE (experiment_id, callpath_id, location_id) FROM root_cause_summary
        ORDER BY class_index, cause_index""",
    "phases": "SELECT * EXCLUDE (experiment_id) FROM run_phases",
    "not_evaluable": """
        SELECT regexp_replace(status, '^not evaluable: ', '') AS reason, list(property ORDER BY property) AS properties
        FROM property_results WHERE status <> 'evaluated' GROUP BY status ORDER BY min(property)""",
}


def decide(con, experiment_id: int, results: pa.Table, catalog: pa.Table, parts=tuple(DECISIONS)) -> dict:
    """The report's decisions (``parts`` of ``DECISIONS``), made by the views of reports/ over this
    evaluation: the ranked ``problems``, the ``rows`` listed (``report_rows``), the
    ``critical_path``'s activities (``critical_path_summary``), the ``root_causes`` of the
    waiting (``root_cause_summary``) and what is ``not_evaluable`` (reason: properties).

    The views read the stored tables ``property_results`` and ``property_catalog`` (so that
    ``SELECT * FROM problems`` in the shell shows the last report's ranking); here this
    evaluation's rows are registered under those names, which shadow the stored ones on
    this connection, whether or not they can be stored. Each part is made on one thread (on a
    database's connection, up to as many parts side by side as DuckDB has threads, on its
    cursors): the same rows in the same order give the same sums, to the last bit (a report
    reading the stored rows shows what the evaluation that stored them showed)."""

    def with_experiment(table: pa.Table) -> pa.Table:
        return table.add_column(0, "experiment_id", pa.array([experiment_id] * table.num_rows, pa.int64()))

    (threads,) = con.execute("SELECT current_setting('threads')").fetchone()
    stored = {database.RESULTS_TABLE: with_experiment(results), database.CATALOG_TABLE: with_experiment(catalog)}
    side_by_side = min(int(threads), len(parts)) if database.shares_tables(con) else 1
    idle = queue.SimpleQueue()  # the connections free to run a part

    def part_on(part: str) -> list[dict]:
        cursor = idle.get()
        try:
            with database.registered(cursor, **stored):
                return cursor.execute(DECISIONS[part]).to_arrow_table().to_pylist()
        finally:
            idle.put(cursor)

    con.execute("SET threads = 1")  # each part on one thread; up to as many side by side as there were
    try:
        if side_by_side == 1:  # here, in this thread
            idle.put(con)
            made = {part: part_on(part) for part in parts}
        else:
            with (
                database.cursors(con, side_by_side) as cursors,
                concurrent.futures.ThreadPoolExecutor(side_by_side) as pool,
            ):
                for cursor in cursors:
                    idle.put(cursor)
                made = dict(zip(parts, pool.map(part_on, parts)))
    finally:
        con.execute(f"SET threads = {int(threads)}")
    for row in made.get("rows", []):
        row["details"] = json.loads(row["details"]) if row["details"] else None
    if "not_evaluable" in made:
        made["not_evaluable"] = {row["reason"]: row["properties"] for row in made["not_evaluable"]}
    return made


def cube(db: str | os.PathLike, experiment: str | None = None, properties_dirs: list[Path] | tuple = ()) -> dict:
    """Evaluate the severity cube (pattern ``time_cube``; the catalog with the plug-ins of
    ``properties_dirs``), store it as ``severity_cube`` and return its metric tree in order:
    metric, parent, depth, unit, inclusive and exclusive totals over all call paths and
    locations, and the call path with the largest value."""
    root = Path(db)
    con = database.connect(root)
    try:
        resources.apply(con, default_memory=resources.REPORT_MEMORY_LIMIT)
        exp = choose_experiment(con, root, experiment)
        evaluation = evaluator.evaluate(con, catalog_mod.load(properties_dirs), exp["experiment_id"], {}, ["time_cube"])
        if not evaluation.evaluated("time_cube"):
            raise CosyError(root, f"experiment '{exp['name']}': severity cube {evaluation.status['time_cube']}")
        table = evaluation.cube()
        metrics = (
            evaluation.query("""
            WITH per_callpath AS (
                SELECT metric, callpath_id, sum(inclusive) AS inclusive, sum(exclusive) AS exclusive
                FROM {{ ref('time_cube') }} GROUP BY ALL
            ), totals AS (
                SELECT metric, sum(inclusive) AS inclusive, sum(exclusive) AS exclusive,
                       arg_max(callpath_id, inclusive) AS top_callpath_id
                FROM per_callpath GROUP BY metric
            )
            SELECT m.metric, m.parent, m.depth, m.unit, coalesce(t.inclusive, 0) AS inclusive,
                   coalesce(t.exclusive, 0) AS exclusive, c.path AS top_callpath
            FROM {{ ref('metric_tree') }} m
            LEFT JOIN totals t USING (metric)
            LEFT JOIN {{ ref('callpaths') }} c ON c.callpath_id = t.top_callpath_id
            ORDER BY m.position""")
            .to_arrow_table()
            .to_pylist()
        )
    finally:
        con.close()
    evaluator.store(root, exp["experiment_id"], {database.CUBE_TABLE: table})
    return dict(experiment={k: exp[k] for k in ("experiment_id", "name")}, metrics=metrics)


#: The columns of a compared row (``diff``), as the Python API's ``Diff.rows`` types them.
DIFF_COLUMNS = pa.schema(
    [
        ("property", pa.string()),
        ("place", pa.string()),  # the call path, a function as a whole ('f (all calls)') or '(rank basis)'
        ("mangled_place", pa.string()),  # each name as recorded, beside its demangled form (names.demangled)
        ("callpath", pa.string()),
        ("mangled_callpath", pa.string()),
        ("region", pa.string()),
        ("mangled_region", pa.string()),
        ("condition_id", pa.string()),
        ("unit", pa.string()),
        ("value_a", pa.float64()),
        ("value_b", pa.float64()),
        ("change", pa.float64()),
        ("relative_change", pa.float64()),
        ("severity_a", pa.float64()),
        ("severity_b", pa.float64()),
        ("same", pa.list_(pa.string())),  # the properties with these values here, left out
    ]
)


def diff(
    db: str | os.PathLike,
    a: str | None = None,
    b: str | None = None,
    properties: list[str] | None = None,
    properties_dirs: list[Path] | tuple = (),
    params: dict | None = None,
    db_b: str | os.PathLike | None = None,
) -> dict:
    """Compare experiment ``a`` of database ``db`` with experiment ``b`` of ``db_b`` (default
    ``db``; an experiment left out: its database's latest trace) per property and call path.

    The catalog is evaluated on each experiment in its own database (the results stored
    there as a report's, at threshold 0), then the two results are compared in memory:
    per property (those of ``properties`` when given), call path (matched by its path, so
    that two databases compare) or function as a whole, and condition (rows of several
    conditions, e.g. variables, match by condition_id), the all-process rows whose
    condition holds in either: value in a and b, change = b - a and relative change =
    change / a (NULL when a is 0).

    Each change is listed once: a call path's row is its own value, as
    in Scalasca's cube. A wait state's rows are its own (exclusive); a row of another
    property whose value is, in each experiment, the sum of the rows at its callees (an
    inclusive value: ASL's total_cost at main sums its MPI calls') only repeats their
    changes and is left out. A property declaring ``same_as`` is left out where its twin
    has the same values in both, and named in the twin's ``same``.

    Returns ``a`` and ``b`` (the column labels: the experiment names, with their
    databases' names where both are alike), ``experiments`` (per side: db, experiment_id,
    name) and ``rows`` (``DIFF_COLUMNS``), largest change first, their names demangled as
    the report's JSON has them (``names.demangled``: ``place``, ``callpath`` and ``region``
    in full, as recorded in ``mangled_place``, ...)."""
    root_a = Path(db)
    root_b = Path(db_b) if db_b is not None else root_a
    if db_b is None and (a is None or b is None):
        raise CosyError(root_a, "name the two experiments to compare (or give a second database)")
    catalog = catalog_mod.load(properties_dirs)
    params = dict(params or {})
    _check_selection(catalog, properties, params)
    sides = [_diff_side(root, name, catalog, properties, params) for root, name in ((root_a, a), (root_b, b))]
    labels = [side["experiment"]["name"] for side in sides]
    if db_b is not None and labels[0] == labels[1]:
        labels = [f"{root.resolve().name}:{label}" for root, label in zip((root_a, root_b), labels)]
        if labels[0] == labels[1]:
            labels = [f"A {labels[0]}", f"B {labels[1]}"]
    entries = pa.Table.from_pylist(
        [
            dict(property=n, wait_state=p.wait_state, same_as=p.same_as, ancestors=catalog_mod.ancestors(catalog, n))
            for n, p in catalog.items()
        ],
        pa.schema(
            [
                ("property", pa.string()),
                ("wait_state", pa.bool_()),
                ("same_as", pa.string()),
                ("ancestors", pa.list_(pa.string())),
            ]
        ),
    )
    con = duckdb.connect()
    try:
        con.register("rows_a", sides[0]["results"])
        con.register("rows_b", sides[1]["results"])
        con.register("tree_a", sides[0]["tree"])
        con.register("tree_b", sides[1]["tree"])
        con.register("entries", entries)
        rows = con.execute(_DIFF_SQL, {"asked": list(properties) if properties else None}).to_arrow_table()
    finally:
        con.close()
    return dict(
        a=labels[0],
        b=labels[1],
        experiments={
            key: dict(db=str(root), experiment_id=side["experiment"]["experiment_id"], name=side["experiment"]["name"])
            for key, root, side in zip("ab", (root_a, root_b), sides)
        },
        rows=names.demangled(rows.to_pylist()),
    )


def _diff_side(root: Path, experiment: str | None, catalog: dict, properties: list[str] | None, params: dict) -> dict:
    """Evaluate the catalog (``properties`` and what they read, default all) on one experiment
    of ``root`` and store the results there as a report at threshold 0 does (where the
    database can be written): the experiment, its ``property_results`` rows and its call
    tree (callpath_id, parent_id)."""
    con = database.connect(root)
    try:
        resources.apply(con, default_memory=resources.REPORT_MEMORY_LIMIT)
        exp = choose_experiment(con, root, experiment)
        selected = sorted(set(properties) | {"rank_basis", "location_time"}) if properties else None
        evaluation = evaluator.evaluate(
            con, catalog, exp["experiment_id"], dict(params, p_rank_basis=None), selected, keep_patterns=set()
        )
        results = evaluation.results(0.0, None)
        tree = con.execute(
            "SELECT callpath_id, parent_id FROM callpaths WHERE experiment_id = ?", [exp["experiment_id"]]
        ).to_arrow_table()
    finally:
        con.close()
    with contextlib.suppress(OSError):  # e.g. a read-only database: the comparison is still made
        evaluator.store(
            root,
            exp["experiment_id"],
            {database.RESULTS_TABLE: results, database.CATALOG_TABLE: catalog_table(catalog)},
            replace_properties=[n for n in evaluation.status if catalog[n].kind == "property"] if properties else None,
        )
    return dict(experiment=exp, results=results, tree=tree)


#: The comparison of two experiments' results (``diff``): rows_a / rows_b their
#: property_results, tree_a / tree_b their call trees, entries the catalog's
#: wait_state and same_as per property; $asked the properties compared (NULL: all).
_DIFF_SQL = """
WITH r AS (
    SELECT 'a' AS side, * FROM rows_a UNION ALL BY NAME SELECT 'b' AS side, * FROM rows_b
),
own AS (  -- a side's all-process rows, with the parent of their call path
    SELECT r.*, coalesce(r.callpath, r.region || ' (all calls)', '(rank basis)') AS place,
           t.parent_id,
           count(*) OVER (PARTITION BY r.side, r.property, r.callpath, r.region) AS n
    FROM r
    LEFT JOIN (SELECT 'a' AS side, * FROM tree_a UNION ALL SELECT 'b', * FROM tree_b) AS t
        ON t.side = r.side AND t.callpath_id = r.callpath_id
    WHERE r.status = 'evaluated' AND r.location_id IS NULL
),
callees AS (  -- per row, the sum of the same property's rows at its callees (same condition)
    SELECT p.side, p.property, p.callpath_id, p.condition_id, sum(c.value) AS value, count(*) AS rows
    FROM own AS p
    JOIN own AS c
        ON c.side = p.side AND c.property = p.property AND c.parent_id = p.callpath_id
        AND c.condition_id IS NOT DISTINCT FROM p.condition_id
    GROUP BY ALL
),
side AS (  -- sums: the row's value is its callees' (to 1e-9 of it): it repeats them
    SELECT o.*, coalesce(abs(o.value - c.value) <= 1e-9 * greatest(abs(o.value), abs(c.value)), false) AS sums
    FROM own AS o
    LEFT JOIN callees AS c
        ON c.side = o.side AND c.property = o.property AND c.callpath_id = o.callpath_id
        AND c.condition_id IS NOT DISTINCT FROM o.condition_id
    WHERE $asked IS NULL OR list_contains($asked, o.property)
),
x AS (SELECT * FROM side WHERE side = 'a'),
y AS (SELECT * FROM side WHERE side = 'b'),
joined AS (
    SELECT coalesce(x.property, y.property) AS property, coalesce(x.place, y.place) AS place,
           coalesce(x.callpath, y.callpath) AS callpath, coalesce(x.region, y.region) AS region,
           coalesce(y.condition_id, x.condition_id) AS condition_id, coalesce(x.unit, y.unit) AS unit,
           x.value AS value_a, y.value AS value_b,
           coalesce(y.value, 0) - coalesce(x.value, 0) AS change,
           (coalesce(y.value, 0) - x.value) / nullif(x.value, 0) AS relative_change,
           x.severity AS severity_a, y.severity AS severity_b,
           coalesce(x.sums, true) AND coalesce(y.sums, true) AS sums
    FROM x FULL JOIN y
        ON x.property = y.property AND x.callpath IS NOT DISTINCT FROM y.callpath
        AND x.region IS NOT DISTINCT FROM y.region
        -- rows of one condition (e.g. a variable) match by it; a property's only row on both sides matches
        AND (x.condition_id IS NOT DISTINCT FROM y.condition_id OR (x.n = 1 AND y.n = 1))
    WHERE coalesce(x.condition, false) OR coalesce(y.condition, false)
),
listed AS (
    SELECT j.* EXCLUDE (sums), e.same_as, e.ancestors
    FROM joined AS j
    JOIN entries AS e USING (property)
    WHERE e.wait_state OR NOT j.sums
),
matches AS (  -- t has o's values at o's place in both: o is a sub-property of t, or its declared twin
    SELECT t.property, t.place, t.condition_id, o.property AS other
    FROM listed AS t
    JOIN listed AS o
        ON o.place = t.place AND o.condition_id IS NOT DISTINCT FROM t.condition_id
        AND (o.property = t.same_as OR list_contains(o.ancestors, t.property))
        AND coalesce(abs(t.value_a - o.value_a) <= 1e-9 * abs(o.value_a), t.value_a IS NULL AND o.value_a IS NULL)
        AND coalesce(abs(t.value_b - o.value_b) <= 1e-9 * abs(o.value_b), t.value_b IS NULL AND o.value_b IS NULL)
),
named AS (  -- a match on a row that is listed: t is named on it
    SELECT m.*
    FROM matches AS m
    SEMI JOIN (SELECT * FROM listed ANTI JOIN matches USING (property, place, condition_id)) AS k
        ON k.property = m.other AND k.place = m.place AND k.condition_id IS NOT DISTINCT FROM m.condition_id
)
SELECT l.* EXCLUDE (same_as, ancestors),
       coalesce((SELECT list(DISTINCT n.property ORDER BY n.property) FROM named AS n
                 WHERE n.other = l.property AND n.place = l.place
                 AND n.condition_id IS NOT DISTINCT FROM l.condition_id), []) AS same
FROM listed AS l
ANTI JOIN named AS n ON n.property = l.property AND n.place = l.place
    AND n.condition_id IS NOT DISTINCT FROM l.condition_id
ORDER BY abs(change) DESC, property, callpath, region, condition_id"""
