"""Scalasca 2.6's analysis of the shared real traces, as {(metric, call path, (rank, thread)): value}.

Two independent sources: the exported CSVs (`scalasca/*.all.csv`, call-path-exclusive and
metric-inclusive values, derived metrics included) and Scalasca's own cube (`scout.cubex`,
read with pycubexr), which holds only the metrics scout measures (no CubePL-derived ones
such as comp or mpi_point2point). Call paths are `root/child/.../callee`, exactly as given.
"""

from __future__ import annotations

import csv
from pathlib import Path

import numpy as np
from pycubexr import CubexParser

from cosydb import catalog, database, engine


def csv_cells(folder: Path) -> dict:
    """The cells of ``<trace>/scalasca/*.all.csv``; the hybrid trace's locations through *.locations.csv."""
    scalasca = folder / "scalasca"
    location = {}
    for path in scalasca.glob("*.locations.csv"):
        with open(path) as f:
            location = {int(r["location"]): (int(r["rank"]), int(r["thread"])) for r in csv.DictReader(f)}
    with open(next(scalasca.glob("*.all.csv"))) as f:
        return {
            (r["metric"], r["callpath"], location.get(int(r["rank"]), (int(r["rank"]), 0))): float(r["value"])
            for r in csv.DictReader(f)
        }


def cube_cells(cubex: Path) -> tuple[dict, set]:
    """The non-zero cells of a scout cube of an MPI-only run (location index = rank, thread 0)
    and the names of all its metrics. Scout stores each metric metric-inclusive; ``time`` is
    converted to call-path-exclusive."""
    cells = {}
    with CubexParser(str(cubex)) as cube:
        paths = {}

        def walk(cnode, prefix):
            paths[cnode.id] = (cnode, prefix + cube.get_region(cnode).name)
            for child in cnode.get_children():
                walk(child, paths[cnode.id][1] + "/")

        for root in cube.get_root_cnodes():
            walk(root, "")
        metrics = {m.name: m for root in cube.get_metrics() for m in root.get_all_children()}
        for metric in metrics.values():
            try:
                values = cube.get_metric_values(metric)
            except Exception:  # pycubexr raises for a metric stored without data: all zero
                continue
            for cnode, path in paths.values():
                row = np.asarray(values.cnode_values(cnode, convert_to_exclusive=True), dtype=float)
                for rank in np.flatnonzero(row):
                    cells[(metric.name, path, (int(rank), 0))] = float(row[rank])
    return cells, set(metrics)


def our_cells(db: Path) -> tuple[dict, set]:
    """cosydb's severity cube of experiment 1 (metric-inclusive values) and its metric names."""
    con = database.connect(db)
    try:
        evaluation = engine.evaluate(con, catalog.load(), 1, {}, ["time_cube"])
        cells = {
            (m, p, (r, t)): v
            for m, p, r, t, v in evaluation.query("""
            SELECT t.metric, c.path, l.rank, l.thread, t.inclusive FROM {{ ref('time_cube') }} t
            JOIN callpaths c USING (callpath_id) JOIN locations l USING (location_id)""").fetchall()
        }
        metrics = {m for (m,) in evaluation.query("SELECT metric FROM {{ ref('metric_tree') }}").fetchall()}
    finally:
        con.close()
    return cells, metrics


def disagreements(ours: dict, theirs: dict, rel: float = 1e-3, abs_: float = 1e-9) -> list:
    """Cells (either side; absent = 0) whose values differ by more than ``rel`` (+ ``abs_``)."""
    return [
        (key, ours.get(key, 0.0), theirs.get(key, 0.0))
        for key in sorted(set(ours) | set(theirs))
        if abs(ours.get(key, 0.0) - theirs.get(key, 0.0)) > abs_ + rel * abs(theirs.get(key, 0.0))
    ]


#: Metrics built on each location's own time profile (critical_path_profile.local_s). Scout
#: keeps a location's time map in a fixed_priority_map of 128 entries (src/scout/scout_types.h,
#: timemap_t; fixed_map.hh): on a location with more time-carrying call paths it evicts the
#: smallest entries, so these metrics lose small cells there. cosydb computes them exactly.
TIME_MAP_METRICS = frozenset(
    {
        "critical_path_activities",
        "non_critical_path_activities",
        "critical_imbalance_impact",
        "inter_partition_imbalance",
        "intra_partition_imbalance",
        "performance_impact_criticalpath",
        "performance_impact",
    }
)
#: Metrics built on the time maps of synchronisation intervals (delay_shares), every metric
#: under Scalasca's roots delay and waitstates_*: scout caps these maps the same way, so
#: they lose small cells where an interval the delay analysis compares holds more call paths.
DELAY_METRICS = frozenset(
    name
    for name in catalog.load()
    if {name, *catalog.ancestors(catalog.load(), name)}
    & {"delay", "waitstates_propagating_vs_terminal", "waitstates_direct_vs_indirect"}
)
TIME_MAP_CAPACITY = 128
#: A difference of two of them is compared on the scale of its operands.
DIFFERENCES = {"intra_partition_imbalance": ("critical_imbalance_impact", "inter_partition_imbalance")}


def time_map_overflows(db: Path) -> frozenset:
    """The metrics whose scout time maps overflow on experiment 1: TIME_MAP_METRICS where a
    location spent time in more call paths than a time map holds, DELAY_METRICS where a
    synchronisation interval of the delay analysis does."""
    con = database.connect(db)
    try:
        (most,) = con.execute(
            "SELECT max(n) FROM (SELECT count(DISTINCT callpath_id) AS n FROM region_instances"
            " WHERE experiment_id = 1 GROUP BY location_id)"
        ).fetchone()
        evaluation = engine.evaluate(con, catalog.load(), 1, {}, ["delay_resolutions"])
        (most_in_interval,) = evaluation.query("""
            WITH intervals AS (
                SELECT delayer_location_id AS l, group_from_index AS a, delayer_index AS b
                FROM {{ ref('delay_resolutions') }}
                UNION SELECT delayer_location_id, delayer_from_index, delayer_index FROM {{ ref('delay_resolutions') }}
                UNION SELECT location_id, waiter_from_index, point_index FROM {{ ref('delay_resolutions') }})
            SELECT coalesce(max(n), 0) FROM (
                SELECT count(DISTINCT t.callpath_id) AS n
                FROM (SELECT l, a, b, unnest(range(a + 1, b + 1)) AS k FROM intervals) AS i
                JOIN {{ ref('sync_interval_times') }} AS t ON t.location_id = i.l AND t.point_index = i.k
                GROUP BY i.l, i.a, i.b)""").fetchone()
    finally:
        con.close()
    return (TIME_MAP_METRICS if most > TIME_MAP_CAPACITY else frozenset()) | (
        DELAY_METRICS if most_in_interval > TIME_MAP_CAPACITY else frozenset()
    )


def split_by_time_map(ours: dict, theirs: dict, overflowing: frozenset) -> tuple[list, list]:
    """(cells of the other metrics that disagree, metrics of ``overflowing`` whose totals
    differ by more than 0.5 % of the reference's absolute cell sum, or its operands' for a
    difference): the comparison where scout's time maps overflowed."""
    exact = [d for d in disagreements(ours, theirs) if d[0][0] not in overflowing]
    totals = []
    for metric in sorted(overflowing):
        mine = sum(v for k, v in ours.items() if k[0] == metric)
        reference = sum(v for k, v in theirs.items() if k[0] == metric)
        scale = sum(abs(v) for k, v in theirs.items() if k[0] in DIFFERENCES.get(metric, (metric,)))
        if abs(mine - reference) > 5e-3 * scale + 1e-9:
            totals.append((metric, mine, reference))
    return exact, totals
