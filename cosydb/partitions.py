"""Location partitions: the unit in which a load derives the per-location models.

A partition is a set of whole processes (location groups, so that the threads of an
OpenMP process stay together) holding at most ``events_per_partition()`` events; a
larger process is a partition of its own. Each partitioned table of ``sql/``
(``config(materialized='table', partitioned=true)``) is computed for one partition at a
time from that partition's events alone (:func:`partition_ref`), so the memory a load
needs is bounded by the partition, not by the trace. The models across locations
(messages, collective instances, call paths) then read every partition's file.
"""

from __future__ import annotations

import os
from collections.abc import Callable

import duckdb

from . import sqlviews, tables
from .errors import CosyError

#: Events per partition unless COSYDB_PARTITION_EVENTS says otherwise: small enough that
#: the windows of one partition sort in DuckDB's memory budget of a load, large enough to
#: hold several processes of a typical run (DuckDB sorts a window's partitions - here
#: locations - in parallel: a partition of one location keeps one core busy).
DEFAULT_EVENTS = 4_000_000

#: Rows of a sliced table's input (``sliced_by`` in ``cosydb.sqlviews``) per slice, the unit
#: in which a load derives a join across locations: `messages`' join of 5M sends with 5M
#: receives (100M synthetic events) spills under the load's 480 MB and took 22.4-24.3 s as
#: one statement, 10.2-10.6 s in four (docs/performance.md, stop 72); at 10M events (0.5M
#: with 0.5M) one statement takes 0.7-0.9 s, four 1.2-1.3 s.
ROWS_PER_SLICE = 3_000_000


def events_per_partition(given: int | None = None) -> int:
    """The most events a partition holds (``given``, else COSYDB_PARTITION_EVENTS, else the default)."""
    value, where = (
        (str(given), "partition size")
        if given is not None
        else (
            os.environ.get("COSYDB_PARTITION_EVENTS") or str(DEFAULT_EVENTS),
            "COSYDB_PARTITION_EVENTS",
        )
    )
    if not value.isdigit() or int(value) < 1:
        raise CosyError(where, f"'{value}' is not a positive number of events")
    return int(value)


def plan(con: duckdb.DuckDBPyConnection, limit: int) -> list[list[int]]:
    """The location ids of each partition of the events on ``con`` (one experiment), whole
    processes in process order, at most ``limit`` events each unless one process has more.
    Always at least one partition (empty when there are no events)."""
    rows = con.execute(
        """
        select l.location_group_id, e.location_id, e.events
        from (select location_id, count(*) as events from events group by all) as e
        left join locations as l using (location_id)
        order by l.location_group_id nulls last, e.location_id
        """
    ).fetchall()
    processes: dict[object, list[tuple[int, int]]] = {}
    for group, location_id, events in rows:
        processes.setdefault(("group", group) if group is not None else ("location", location_id), []).append(
            (location_id, events)
        )
    parts: list[list[int]] = [[]]
    size = 0
    for members in processes.values():
        events = sum(n for _, n in members)
        if parts[-1] and size + events > limit:
            parts.append([])
            size = 0
        parts[-1] += [location_id for location_id, _ in members]
        size += events
    return parts


def partition_ref(
    objects: dict[str, sqlviews.SqlObject],
    location_ids: list[int],
    partition_table: Callable[[str], str],
) -> Callable[[str], str]:
    """The ``ref()`` of a partitioned table rendered for one partition: a partitioned table
    reads its rows of this partition (the relation ``partition_table(name)``), a table the
    readers write per location set (events, metric values) only this partition's locations,
    a plain view of ``sql/`` is rendered inline with the same ``ref``; anything else (the
    definitions, tables across locations) is read whole."""
    where = f"location_id in ({', '.join(map(str, location_ids))})" if location_ids else "false"

    def ref(name: str) -> str:
        obj = objects.get(name)
        if obj is not None and obj.partitioned:
            return partition_table(name)
        if obj is not None and obj.kind == "view" and not obj.is_table:
            return f"(\n{sqlviews.render_reading(obj, ref)}\n)"
        table = tables.REGISTRY.get(name)
        if table is not None and table.per_reader:
            return f"(select * from {name} where {where})"
        return name

    return ref
