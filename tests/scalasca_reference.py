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

from cosydb import catalog, database, evaluator


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


#: Scalasca's time maps hold 128 call paths (src/scout/scout_types.h, timemap_t): the
#: parameter that makes cosydb's maps the same, for a comparison cell by cell.
SCALASCA_TIME_MAPS = {"p_time_map_entries": 128}


def our_cells(db: Path, values: dict | None = None) -> tuple[dict, set]:
    """cosydb's severity cube of experiment 1 (metric-inclusive values) and its metric names,
    with the parameter ``values``."""
    con = database.connect(db)
    try:
        evaluation = evaluator.evaluate(con, catalog.load(), 1, values or {}, ["time_cube"])
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


def cube_comparison(db, cubex) -> tuple[dict, dict, set]:
    """cosydb's cells of ``db`` (Scalasca's time maps) and scout's of ``cubex``, each only of
    the metrics both define, and those metrics."""
    ours, metrics = our_cells(db, SCALASCA_TIME_MAPS)
    theirs, measured = cube_cells(cubex)
    compared = metrics & measured
    return (
        {key: value for key, value in ours.items() if key[0] in compared},
        {key: value for key, value in theirs.items() if key[0] in compared},
        compared,
    )
