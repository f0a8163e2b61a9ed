"""Export the severity cube as a CUBE4 file (``.cubex``) that the Cube tools open.

A ``.cubex`` is a tar archive holding ``anchor.xml`` (metric tree, regions, call
tree, system tree) and, per metric, ``<id>.index`` (the call-tree nodes that have
data) and ``<id>.data`` (one value per (node, location), node-major). Values are
those of the table ``severity_cube``: exclusive along the metric tree (Cube adds
the sub-metrics when a metric is collapsed) and along the call tree (metric type
EXCLUSIVE: Cube adds the callees when a call path is collapsed).

Names are written exactly, tabs, newlines and carriage returns as character references,
but for the characters XML 1.0 forbids (the C0 controls other than those three, lone
surrogates, U+FFFE/U+FFFF): each is written as its visible escape text, e.g. ``\\x1b``.
"""

from __future__ import annotations

import io
import os
import re
import struct
import tarfile
from pathlib import Path
from xml.sax.saxutils import escape, quoteattr

import numpy as np

from . import database, names, outputs
from .errors import CosyError
from .report import cube as compute_cube

#: Units of severity_cube -> Cube's units of measurement.
_UOM = {"s": "sec", "count": "occ", "bytes": "bytes"}
#: The characters XML 1.0 forbids.
_NOT_XML = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\ud800-\udfff\ufffe\uffff]")


def _visible(text: str) -> str:
    """``text`` with each character XML 1.0 forbids as its escape text (``\\x1b``, ``\\ufffe``)."""
    return _NOT_XML.sub(lambda m: f"\\x{ord(m[0]):02x}" if ord(m[0]) < 0x100 else f"\\u{ord(m[0]):04x}", text)


def _text(text: str) -> str:
    """``text`` as XML character data (tab, newline and carriage return as references, kept exactly)."""
    return escape(_visible(text), {"\t": "&#9;", "\n": "&#10;", "\r": "&#13;"})


def export(db, output, experiment=None, start=None, end=None, locations=None, properties_dirs=()) -> dict:
    """``cosydb export --format cube`` (``cosydb.formats``): ``write_cubex``; a cube has no window."""
    if (start, end, locations) != (None, None, None):
        raise CosyError(db, "start, end and locations select what a perfetto export writes")
    return write_cubex(db, output, experiment, properties_dirs)


def summary(written: dict) -> str:
    return f"{written['metrics']} metrics x {written['callpaths']} call paths x {written['locations']} locations"


def write_cubex(
    db: str | os.PathLike, output: str | os.PathLike, experiment: str | None = None, properties_dirs=()
) -> dict:
    """Compute and store the severity cube of an experiment (the catalog with the plug-ins of
    ``properties_dirs``), write it to ``output`` (atomically) and return counts of what was written."""
    root, output = Path(db), outputs.checked(output, "run.cubex")
    tree = compute_cube(root, experiment, properties_dirs)
    experiment_id = tree["experiment"]["experiment_id"]
    con = database.connect(root)
    try:

        def fetch(sql):
            return con.execute(sql, [experiment_id]).fetchall()

        regions = fetch(
            "SELECT region_id, name, canonical_name, paradigm, role, source_file, begin_line, end_line "
            "FROM regions WHERE experiment_id = ? ORDER BY region_id"
        )
        callpaths = fetch(
            "SELECT callpath_id, parent_id, region_id FROM callpaths WHERE experiment_id = ? ORDER BY callpath_id"
        )
        locations = fetch(
            "SELECT location_id, rank, thread, name FROM locations WHERE experiment_id = ? "
            "AND location_type = 'CPU_THREAD' ORDER BY rank, thread, location_id"
        )
        cells = con.execute(
            "SELECT metric, callpath_id, location_id, exclusive FROM severity_cube WHERE experiment_id = ?",
            [experiment_id],
        ).fetchnumpy()
    finally:
        con.close()

    region_index = {region_id: i for i, (region_id, *_) in enumerate(regions)}
    children: dict = {}
    for callpath_id, parent_id, region_id in callpaths:
        children.setdefault(parent_id, []).append((callpath_id, region_id))
    cnode_index: dict = {}

    def number(parent):
        for callpath_id, _ in children.get(parent, []):
            cnode_index[callpath_id] = len(cnode_index)
            number(callpath_id)

    number(None)
    location_index = {location_id: i for i, (location_id, *_) in enumerate(locations)}
    metrics = tree["metrics"]
    metric_index = {m["metric"]: i for i, m in enumerate(metrics)}

    rows = _positions(cnode_index, cells["callpath_id"])
    columns = _positions(location_index, cells["location_id"])
    grids = {}
    for m in metrics:
        grid = grids[m["metric"]] = np.zeros((len(cnode_index), len(location_index)))
        mine = (cells["metric"] == m["metric"]) & (columns >= 0)
        grid[rows[mine], columns[mine]] = cells["exclusive"][mine]

    files = {"anchor.xml": _anchor(metrics, metric_index, regions, children, cnode_index, region_index, locations)}
    index = _index(len(cnode_index))
    for m in metrics:
        files[f"{metric_index[m['metric']]}.index"] = index
        files[f"{metric_index[m['metric']]}.data"] = _data(grids[m["metric"]], m["unit"])
    with outputs.replaced(output) as tmp, tarfile.open(tmp, "w") as tar:
        for name, payload in files.items():
            info = tarfile.TarInfo(name)
            info.size = len(payload)
            tar.addfile(info, io.BytesIO(payload))
    return dict(metrics=len(metrics), callpaths=len(cnode_index), locations=len(location_index))


def _anchor(metrics, metric_index, regions, children, cnode_index, region_index, locations) -> bytes:
    out = [
        '<?xml version="1.0" encoding="UTF-8"?>',
        '<cube version="4.4">',
        '<attr key="Creator" value="cosydb"/>',
        '<attr key="CUBE_CT_AGGR" value="SUM"/>',
        "<metrics>",
    ]
    by_parent: dict = {}
    for m in metrics:
        by_parent.setdefault(m["parent"], []).append(m)

    def metric(m):
        dtype = "DOUBLE" if m["unit"] == "s" else "UINT64"
        out.append(
            f'<metric id="{metric_index[m["metric"]]}" type="EXCLUSIVE">'
            f"<disp_name>{_text(m['metric'])}</disp_name><uniq_name>{_text(m['metric'])}</uniq_name>"
            f"<dtype>{dtype}</dtype><uom>{_UOM[m['unit']]}</uom><url></url>"
            f"<descr>{_text(m['metric'])} (cosydb severity cube)</descr>"
        )
        for child in by_parent.get(m["metric"], []):
            metric(child)
        out.append("</metric>")

    for m in by_parent.get(None, []):
        metric(m)
    out += ["</metrics>", "<program>"]
    for region_id, name, canonical, paradigm, role, source_file, begin, end in regions:
        out.append(
            f'<region id="{region_index[region_id]}" mod={quoteattr(_visible(source_file or ""))} '
            f'begin="{begin if begin else -1}" end="{end if end else -1}">'
            # as Score-P writes them: the name demangled, the name as recorded beside it
            f"<name>{_text(names.demangle(name or ''))}</name>"
            f"<mangled_name>{_text(canonical or name or '')}</mangled_name>"
            f"<paradigm>{_text((paradigm or '').lower())}</paradigm><role>{_text((role or '').lower())}</role>"
            "<url></url><descr></descr></region>"
        )

    def cnode(parent):
        for callpath_id, region_id in children.get(parent, []):
            out.append(f'<cnode id="{cnode_index[callpath_id]}" calleeId="{region_index[region_id]}">')
            cnode(callpath_id)
            out.append("</cnode>")

    cnode(None)
    out += [
        "</program>",
        "<system>",
        '<systemtreenode Id="0"><class>machine</class><name>cosydb</name>',
        '<systemtreenode Id="1"><class>node</class><name>node</name>',
    ]
    groups: dict = {}
    for i, (_, rank, thread, _) in enumerate(locations):
        groups.setdefault(rank, []).append((i, thread))
    for g, (rank, members) in enumerate(sorted(groups.items())):
        out.append(f'<locationgroup Id="{g}"><name>MPI Rank {rank}</name><rank>{rank}</rank><type>process</type>')
        for i, thread in members:
            out.append(
                f'<location Id="{i}"><name>rank {rank} thread {thread}</name><rank>{thread}</rank><type>thread</type>'
                "</location>"
            )
        out.append("</locationgroup>")
    out += ["</systemtreenode>", "</systemtreenode>", "</system>", "</cube>"]
    return "\n".join(out).encode()


def _positions(index: dict, ids: np.ndarray) -> np.ndarray:
    """The position of every id in ``index`` (id -> position), -1 for ids it does not hold.
    Ids may be sparse and large (a thread's location id is thread << 32 | rank)."""
    keys = np.array(sorted(index), dtype=np.int64)
    if not len(keys):
        return np.full(len(ids), -1)
    positions = np.array([index[k] for k in keys])
    at = np.clip(np.searchsorted(keys, ids), 0, len(keys) - 1)
    return np.where(keys[at] == ids, positions[at], -1)


def _index(n_cnodes: int) -> bytes:
    """A dense index: every call-tree node has data (format version 0, type 1)."""
    return b"CUBEX.INDEX" + struct.pack("<ihbi", 1, 0, 1, n_cnodes) + struct.pack(f"<{n_cnodes}i", *range(n_cnodes))


def _data(grid: np.ndarray, unit: str) -> bytes:
    """Seconds as DOUBLE, counts and bytes as UINT64, little-endian, node-major."""
    if unit == "s":
        return b"CUBEX.DATA" + np.ascontiguousarray(grid).astype("<f8").tobytes()
    return b"CUBEX.DATA" + np.ascontiguousarray(np.rint(grid)).astype("<u8").tobytes()
