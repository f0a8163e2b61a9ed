"""Load a CUBE4 profile (Score-P's ``profile.cubex``) into cosydb's definition and profile tables.

The file is read with ``pycubexr``. Definitions become the tables a trace
has (``regions``, ``system_tree``, ``location_groups``, ``locations``), the
call tree becomes ``cnodes`` and every metric ``profile_metrics``; the values
become ``profile_values``: one row per (metric, call-tree node, location)
that is not zero, with the value inclusive and exclusive of the node's
callees. Hardware-counter metrics are also listed in ``metrics``, so that
counter properties find them. The SQL of ``sql/`` maps ``cnodes`` to
``callpaths`` and the values to ``callpath_profile`` and ``counter_summary``.

Locations get Score-P's OTF2 location ids, ``thread << 32 | rank``, so the
trace and the profile of one run share them.
"""

from __future__ import annotations

import tarfile
import time
import zlib
from pathlib import Path
from xml.etree.ElementTree import ParseError

import numpy as np
import pyarrow as pa

from cosydb.errors import CosyError
from cosydb.names import printable
from cosydb.tables import schema

from . import LoadResult

FORMAT = "cube4"
IS_TRACE = False
RUN_FILE = "profile.cubex"
RUN_FILE_DOC = "profile.cubex"
FILE_DOC = "a CUBE4 profile (.cubex)"

#: Score-P's own metrics; any other metric of a profile is a hardware counter (PAPI, perf, rusage).
SCOREP_METRICS = frozenset(
    {
        "visits",
        "time",
        "min_time",
        "max_time",
        "bytes_put",
        "bytes_get",
        "io_bytes_read",
        "io_bytes_written",
        "bytes_sent",
        "bytes_received",
    }
)
#: Metrics (and their sub-metrics) whose sums are stored as 64-bit integers (sql/callpath_profile.sql)
_COUNTS = ("visits", "bytes_sent", "bytes_received")
#: Metrics whose values are a minimum or maximum, not a sum: kept as stored (column inclusive).
_EXTREMA = ("MINDOUBLE", "MAXDOUBLE")
#: Cube region roles that OTF2 names differently.
_ROLES = {
    "one2all": "COLL_ONE2ALL",
    "all2one": "COLL_ALL2ONE",
    "all2all": "COLL_ALL2ALL",
    "other collective": "COLL_OTHER",
    "file_io metadata": "FILE_IO_METADATA",
}
_PARADIGMS = {"measurement": "MEASUREMENT_SYSTEM"}
_LOCATION_TYPES = {"thread": "CPU_THREAD", "gpu": "GPU", "metric": "METRIC"}


def detect(path: Path) -> bool:
    """A file to be read as a CUBE4 profile: a ``.cubex`` name or a tar archive."""
    return path.is_file() and (path.suffix == ".cubex" or tarfile.is_tarfile(path))


def _check_id(path: Path, what: str, value: int, bits: int = 32) -> None:
    """An id (or number) stored in a signed ``bits``-bit column: 0 up to its maximum, else one line."""
    if not 0 <= value < 2 ** (bits - 1):
        raise CosyError(path, printable(f"{what} {value} is out of range (0..{2 ** (bits - 1) - 1})"))


def _upper(text: str | None, special: dict) -> str | None:
    if not text:
        return None
    return special.get(text, text.upper().replace(" ", "_"))


def _regions(regions) -> list[dict]:
    return [
        dict(
            region_id=r.id,
            name=r.name,
            canonical_name=r.mangled_name,
            description=r.description or None,
            role=_upper(r.role, _ROLES),
            paradigm=_upper(r.paradigm, _PARADIGMS),
            flags=None,
            source_file=r.mod or None,
            begin_line=r.begin if 0 <= r.begin < 2**31 else None,  # -1: unknown
            end_line=r.end if 0 <= r.end < 2**31 else None,
        )
        for r in regions
    ]


def _system(root) -> tuple[list[dict], list[dict], list[dict], list[int]]:
    """system_tree, location_groups and locations rows, and the location ids in Cube's location order."""
    nodes, groups, locations, by_cube_id = [], [], [], {}

    def node(n, parent):
        name = n.name[len(n.clazz) + 1 :] if n.clazz and n.name.startswith(n.clazz + " ") else n.name
        nodes.append(dict(system_tree_node_id=n.id, name=name, class_name=n.clazz, parent_id=parent))
        for child in n._system_tree_node_children:
            node(child, n.id)
        for g in n._location_group_children:
            group(g, n.id)

    def group(g, parent):
        rank = int(g.rank)
        groups.append(
            dict(
                location_group_id=g.id,
                name=g.name,
                group_type=(g.type or "").upper(),
                system_tree_node_id=parent,
                rank=rank,
            )
        )
        for loc in g.all_locations():
            thread = int(loc.rank)
            location_id = (thread << 32) | rank
            by_cube_id[loc.id] = location_id
            locations.append(
                dict(
                    location_id=location_id,
                    name=loc.name,
                    location_type=_LOCATION_TYPES.get(loc.type, (loc.type or "").upper()),
                    location_group_id=g.id,
                    rank=rank,
                    thread=thread,
                    number_of_events=None,
                )
            )

    node(root, None)
    if sorted(by_cube_id) != list(range(len(by_cube_id))):
        raise ValueError("location ids are not 0..n-1")
    return nodes, groups, locations, [by_cube_id[i] for i in range(len(by_cube_id))]


def _tree(cnodes) -> tuple[np.ndarray, np.ndarray, np.ndarray, dict]:
    """Cnode ids, each node's parent position (-1 at a root) and depth, and id -> position."""
    ids = np.array([c.id for c in cnodes], dtype=np.int64)
    position = {int(cid): i for i, cid in enumerate(ids)}
    parent = np.array([position[c.parent.id] if c.parent is not None else -1 for c in cnodes], dtype=np.int64)
    depth = np.zeros(len(cnodes), dtype=np.int64)
    for i in range(len(cnodes)):  # cnodes are in pre-order: a parent comes before its children
        if parent[i] >= 0:
            depth[i] = depth[parent[i]] + 1
    return ids, parent, depth, position


def _inclusive_exclusive(grid: np.ndarray, stored: str, parent: np.ndarray, depth: np.ndarray):
    """Both views of a (node x location) grid stored inclusive or exclusive of the callees."""
    child = parent >= 0
    if stored == "INCLUSIVE":
        exclusive = grid.copy()
        np.subtract.at(exclusive, parent[child], grid[child])
        return grid, exclusive
    inclusive = grid.copy()
    for d in range(int(depth.max(initial=0)), 0, -1):
        rows = depth == d
        np.add.at(inclusive, parent[rows], inclusive[rows])
    return inclusive, grid


def _metric_values(parser, metric, n_locations: int, position: dict) -> np.ndarray | None:
    """The (node x location) grid of one metric as float64, or None for a non-scalar type."""
    values = parser.get_metric_values(metric, cache=False)
    raw = values.values
    raw = raw.astype(np.float64) if not isinstance(raw, np.ndarray) else raw
    if raw.dtype.names is not None or raw.ndim != 1:
        return None
    grid = np.zeros((len(position), n_locations))
    rows = [position[cid] for cid in values.cnode_indices]
    grid[rows] = raw.astype(np.float64).reshape(len(rows), n_locations)
    return grid


def _walk_metrics(metrics, parent=None):
    for m in metrics:
        yield m, parent
        yield from _walk_metrics(m.childs, m.id)


def _open(path: Path):
    """An entered ``pycubexr.CubexParser`` of ``path``, its definitions read; failures as one line."""
    from pycubexr import CubexParser

    if not tarfile.is_tarfile(path):
        raise CosyError(path, "not a CUBE4 profile (not a tar archive)")
    try:
        return CubexParser(path).__enter__()
    except KeyError as error:
        with tarfile.open(path) as archive:
            has_anchor = "anchor.xml" in archive.getnames()
        if not has_anchor:
            raise CosyError(path, "not a CUBE4 profile (no anchor.xml in the archive)") from None
        raise CosyError(path, f"anchor.xml refers to an id it does not define ({error})") from None
    except ParseError as error:
        raise CosyError(path, f"anchor.xml is not well-formed XML ({error})") from None
    except (tarfile.TarError, EOFError, OSError, zlib.error) as error:
        raise CosyError(path, f"truncated or corrupt archive ({error})") from None
    except Exception as error:  # whatever else pycubexr raises on a definition it cannot read
        raise CosyError(
            path, printable(f"anchor.xml is not a CUBE4 definition cosydb can read ({type(error).__name__}: {error})")
        ) from None


def _values_table(
    metric_id: int, inclusive: np.ndarray, exclusive: np.ndarray, ids: np.ndarray, location_ids: np.ndarray
) -> pa.Table:
    """The cells of one metric that are not zero, as ``profile_values`` rows."""
    node, location = np.nonzero((inclusive != 0) | (np.nan_to_num(exclusive) != 0))
    return pa.table(
        {
            "metric_id": pa.array(np.full(len(node), metric_id), pa.int32()),
            "cnode_id": pa.array(ids[node]),
            "location_id": pa.array(location_ids[location]),
            "inclusive": pa.array(inclusive[node, location]),
            "exclusive": pa.array(exclusive[node, location], from_pandas=True),
        },
        schema=schema("profile_values"),
    )


def read(path: Path, sink, workers: int | None = None) -> LoadResult:
    """Read the profile at ``path`` into the tables of ``sink`` (one process: ``workers`` unused)."""
    from pycubexr.utils.exceptions import MissingMetricError, UnsupportedMetricFormatError

    started = time.perf_counter()
    parser = _open(path)
    try:
        anchor = parser._anchor_result
        try:
            nodes, groups, locations, location_ids = _system(anchor.system_tree_nodes[0])
        except (ValueError, TypeError) as error:
            raise CosyError(path, f"unreadable system tree ({error})") from None
        for n in nodes:
            _check_id(path, "system tree node id", n["system_tree_node_id"])
        for g in groups:
            _check_id(path, "location group id", g["location_group_id"])
            _check_id(path, f"rank of location group {g['location_group_id']}", g["rank"])
        for loc in locations:
            _check_id(path, f"thread number of location '{loc['name']}'", loc["thread"])
        for r in anchor.regions:
            _check_id(path, "region id", r.id)
        cnodes = parser.all_cnodes()
        if not cnodes:
            raise CosyError(path, "the profile has no call tree")
        for c in cnodes:
            _check_id(path, "cnode id", c.id, 64)
            _check_id(path, f"region id of cnode {c.id}", c.callee_region_id)
        ids, parent, depth, position = _tree(cnodes)
        metric_rows, value_parts, warnings, roots = [], [], [], {}
        for metric, parent_metric in _walk_metrics(parser.get_metrics()):
            _check_id(path, f"id of metric '{metric.name}'", metric.id)
            row = dict(
                metric_id=metric.id,
                name=metric.name,
                display_name=metric.display_name,
                parent_id=parent_metric,
                unit=metric.units,
                data_type=metric.data_type,
                metric_type=metric.metric_type,
                description=metric.description,
                loaded=False,
            )
            metric_rows.append(row)
            roots[metric.id] = roots.get(parent_metric, metric.name)
            try:
                grid = _metric_values(parser, metric, len(location_ids), position)
            except MissingMetricError:  # Score-P writes no data for a metric that is zero everywhere
                grid = np.zeros((len(ids), len(location_ids)))
            except UnsupportedMetricFormatError:
                grid = None
            except Exception as error:  # whatever pycubexr raises on damaged index or data files
                raise CosyError(
                    path,
                    printable(
                        f"corrupt data of metric '{metric.name}' "
                        f"({type(error).__name__}{': ' + str(error) if str(error) else ''})"
                    ),
                ) from None
            if grid is None:  # e.g. histograms, TAU_ATOMIC
                warnings.append(
                    dict(
                        check="profile_metric_skipped",
                        location_id=None,
                        count=1,
                        detail=f"metric '{metric.name}' has type {metric.data_type}, not a number",
                    )
                )
                continue
            row["loaded"] = True
            if metric.data_type in _EXTREMA:
                inclusive, exclusive = grid, np.full_like(grid, np.nan)
            else:
                inclusive, exclusive = _inclusive_exclusive(grid, metric.metric_type, parent, depth)
            if roots[metric.id] in _COUNTS and not np.abs(exclusive).sum() < 2**62:  # NaN too
                raise CosyError(path, printable(f"metric '{metric.name}' holds counts beyond 64 bits (corrupt data?)"))
            value_parts.append(
                _values_table(metric.id, inclusive, exclusive, ids, np.asarray(location_ids, dtype=np.int64))
            )
        names = {m["name"] for m in metric_rows if m["loaded"]}
        missing = {"visits", "time"} - names
        if missing:
            raise CosyError(
                path, f"the profile has no {' and no '.join(sorted(missing))} metric; cosydb reads Score-P profiles"
            )
        regions = _regions(anchor.regions)
    finally:
        parser.__exit__(None, None, None)

    counters = [
        dict(
            metric_id=m["metric_id"],
            metric_kind="profile",
            member_index=0,
            member_id=m["metric_id"],
            name=m["name"],
            description=m["description"],
            metric_type="PAPI" if m["name"].startswith("PAPI_") else "OTHER",
            metric_mode="ACCUMULATED_START",
            value_type=m["data_type"],
            base=None,
            exponent=None,
            unit=m["unit"],
            occurrence=None,
        )
        for m in metric_rows
        if m["loaded"] and m["name"] not in SCOREP_METRICS and m["data_type"] not in _EXTREMA
    ]
    tables = {
        "regions": regions,
        "system_tree": nodes,
        "location_groups": groups,
        "locations": locations,
        "metrics": counters,
        "cnodes": [
            dict(
                cnode_id=int(ids[i]),
                parent_id=int(ids[parent[i]]) if parent[i] >= 0 else None,
                region_id=c.callee_region_id,
            )
            for i, c in enumerate(cnodes)
        ],
        "profile_metrics": metric_rows,
        "profile_values": pa.concat_tables(value_parts) if value_parts else schema("profile_values").empty_table(),
    }
    for name, rows in tables.items():
        sink.write(name, rows)
    loaded = sum(m["loaded"] for m in metric_rows)
    return LoadResult(
        source_path=str(path.resolve()),
        number_of_locations=len(locations),
        loaded=f"a profile of {loaded} metrics on {len(ids)} call-tree nodes",
        creator=anchor.attrs.get("Creator", ""),
        warnings=warnings,
        phase_seconds={"profile": time.perf_counter() - started},
    )
