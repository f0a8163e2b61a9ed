"""Load ASL region summaries (``summary.json`` / ``summary.csv``) written by a compiler or runtime.

The format follows the ASL data model (docs/summary-input.md): regions with their ASL
class (``Function``, ``PRegion``, ``PDo``, ``HPFLoop``, ...) and parent, and per region
the OpenMP summary (SmRegionSummary: sums, thread_sums, instance_sums, accessed
variables with page counters) or the HPF summary (HPFRegionSummary: sums, proc_sums,
declarations), plus machine constants. Regions become ``regions`` and ``cnodes`` (so
call paths and reports work as for traces and profiles); the numbers go to
``summary_regions``, ``sm_sums``, ``variable_accesses``, ``hpf_sums``, ``hpf_decls``
and ``system_constants``. Every error names the file and the offending field.
"""

from __future__ import annotations

import csv
import json
import math
import sys
import time
from pathlib import Path

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc

from cosydb.errors import CosyError
from cosydb.names import printable
from cosydb.tables import HPF_FIELDS, SM_FIELDS, conform

from . import LoadResult

FORMAT = "summary"
IS_TRACE = False
RUN_FILE = None
FILE_DOC = "ASL summary input (.json, .csv)"

FORMAT_VERSION = 1
#: ASL classes of regions -> OTF2-style role and paradigm.
OPENMP_KINDS = {
    "Function": "FUNCTION",
    "IfBlock": "CODE",
    "BasicBlock": "CODE",
    "FunctionCall": "FUNCTION",
    "PRegion": "PARALLEL",
    "PSection": "SECTIONS",
    "PDo": "LOOP",
}
HPF_KINDS = {
    "HPFProcedure": "FUNCTION",
    "HPFLoop": "LOOP",
    "HPFIfBlock": "CODE",
    "HPFBasicBlock": "CODE",
    "HPFProcedureCall": "FUNCTION",
    "HPFArrayAssignment": "CODE",
    "HPFRedistribute": "CODE",
}
SYSTEM_FIELDS = ("remote_access_time", "cache_line_size", "parallel_region_cost")
#: the largest integer a field holds (a 64-bit column)
MAX_INTEGER = 2**63 - 1
#: the most threads or processes (``nr_processors``): one location each is written
MAX_PROCESSORS = 2**20
#: the deepest nesting of regions (a call path's name grows with its depth)
MAX_DEPTH = 1000


def _shown(value) -> str:
    """``value`` as JSON cut to 40 characters; an integer beyond 128 bits by its count of digits
    (Python converts no more than 4300 digits to text)."""
    if isinstance(value, int) and not isinstance(value, bool) and value.bit_length() > 128:
        return f"an integer of about {int(value.bit_length() * math.log10(2)) + 1} digits"
    return json.dumps(value)[:40]


class _Checker:
    """Type and field checks that report the path of the offending value."""

    def __init__(self, path: Path):
        self.path = path

    def fail(self, where: str, problem: str):
        raise CosyError(self.path, printable(f"{where}: {problem}"))

    def object(self, value, where: str, allowed: set[str], required: set[str] = frozenset()) -> dict:
        if not isinstance(value, dict):
            self.fail(where, f"expected an object, got {_shown(value)}")
        for key in value:
            if key not in allowed:
                self.fail(where, f"unknown field '{key}' (allowed: {', '.join(sorted(allowed))})")
        for key in required:
            if key not in value:
                self.fail(where, f"missing field '{key}'")
        return value

    def list(self, value, where: str) -> list:
        if not isinstance(value, list):
            self.fail(where, f"expected a list, got {_shown(value)}")
        return value

    def number(self, value, where: str, integer: bool = False, limit: int = MAX_INTEGER):
        """A number >= 0: a finite float, or with ``integer`` an integer of at most ``limit``."""
        if isinstance(value, bool) or not isinstance(value, (int, float)):
            self.fail(where, f"expected a number, got {_shown(value)}")
        try:
            finite = math.isfinite(float(value))
        except OverflowError:  # an integer beyond a float
            finite = False
        if not finite:
            self.fail(where, f"{_shown(value)} is out of range (not a finite 64-bit float)")
        if value < 0:
            self.fail(where, f"expected a number >= 0, got {_shown(value)}")
        if not integer:
            return float(value)
        if value != int(value):
            self.fail(where, f"expected an integer, got {value}")
        if value > limit:
            self.fail(where, f"{_shown(value)} is out of range (at most {limit})")
        return int(value)

    def text(self, value, where: str, choices=None) -> str:
        if not isinstance(value, str) or not value:
            self.fail(where, f"expected a non-empty string, got {_shown(value)}")
        if choices is not None and value not in choices:
            self.fail(where, f"'{value}' is not one of {', '.join(choices)}")
        return value


def _numbers(check: _Checker, obj: dict, where: str, fields) -> dict:
    return {f: check.number(obj[f], f"{where}.{f}", integer=f.startswith("nr_executions")) for f in fields if f in obj}


def detect(path: Path) -> bool:
    return path.suffix.lower() in (".json", ".csv")


def read(path: Path, sink, workers: int | None = None) -> LoadResult:
    """Read ``path`` (JSON, or CSV by its suffix) into the tables of ``sink``."""
    started = time.perf_counter()
    document = _read_csv(path) if path.suffix.lower() == ".csv" else _read_json(path)
    tables, meta = _convert(path, document)
    for name, rows in tables.items():
        sink.write(name, rows)
    return LoadResult(source_path=str(path.resolve()), **meta, phase_seconds={"summary": time.perf_counter() - started})


def _read_json(path: Path) -> dict:
    try:
        return json.loads(path.read_text(encoding="utf-8-sig"))
    except UnicodeDecodeError:
        raise CosyError(path, "not a text file") from None
    except json.JSONDecodeError as error:
        raise CosyError(path, f"not valid JSON (line {error.lineno} column {error.colno}: {error.msg})") from None
    except RecursionError:
        raise CosyError(path, "not readable JSON (arrays or objects nested too deeply)") from None
    except ValueError:  # an integer of more digits than Python converts
        raise CosyError(
            path, f"not readable JSON (a number of more than {sys.get_int_max_str_digits()} digits)"
        ) from None


def _read_csv(path: Path) -> dict:
    """A CSV holds the per-region numbers only: columns paradigm, nr_processors, region, kind,
    parent, scope ('sums', 'thread', 'instance' or 'process'), number (thread / instance /
    process number), nr_executions, nr_threads and the numbers of the paradigm; one row
    per (region, scope, number)."""
    try:
        with path.open(newline="", encoding="utf-8-sig") as f:
            rows = list(csv.DictReader(f))
    except UnicodeDecodeError:
        raise CosyError(path, "not a text file") from None
    except csv.Error as error:
        raise CosyError(path, f"not valid CSV ({error})") from None
    if not rows:
        raise CosyError(path, "no rows")
    check = _Checker(path)
    fixed = {
        "paradigm",
        "nr_processors",
        "region",
        "kind",
        "parent",
        "ltype",
        "scope",
        "number",
        "nr_executions",
        "nr_threads",
    }
    fields = {"openmp": SM_FIELDS, "hpf": HPF_FIELDS}.get(rows[0].get("paradigm"))
    if fields is None:
        check.fail("line 2, column paradigm", f"'{rows[0].get('paradigm')}' is not one of openmp, hpf")
    for column in rows[0]:
        if column not in fixed and column not in fields:
            check.fail("header", f"unknown column '{column}' (allowed: {', '.join(sorted(fixed | set(fields)))})")
    document, regions, summaries = None, {}, {}
    for i, row in enumerate(rows, start=2):
        where = f"line {i}"
        if None in row:
            check.fail(where, "more values than columns")
        numbers = {}
        for key, text in row.items():
            if key in fixed or text in ("", None) or key is None:
                continue
            try:
                numbers[key] = float(text)
            except ValueError:
                check.fail(f"{where}, column {key}", f"expected a number, got '{text}'")
        if document is None:
            document = {
                "cosydb_summary": FORMAT_VERSION,
                "paradigm": row.get("paradigm"),
                "regions": [],
                "summaries": [],
            }
            if row.get("nr_processors"):
                document["nr_processors"] = _csv_int(
                    check, row["nr_processors"], f"{where}, column nr_processors", MAX_PROCESSORS
                )
        name = row.get("region") or check.fail(where, "missing value in column 'region'")
        if name not in regions:
            regions[name] = {k: row[k] for k in ("kind", "parent", "ltype") if row.get(k)}
            regions[name]["name"] = name
            summaries[name] = {"region": name}
        summary = summaries[name]
        scope = row.get("scope") or "sums"
        if row.get("nr_executions"):
            numbers["nr_executions"] = _csv_int(check, row["nr_executions"], f"{where}, column nr_executions")
        if scope == "sums":
            if document["paradigm"] == "openmp" and "nr_executions" in numbers:
                summary["nr_executions"] = numbers.pop("nr_executions")
            summary["sums"] = numbers
        elif scope in ("thread", "instance", "process"):
            number = _csv_int(check, row.get("number") or "", f"{where}, column number")
            key = {"thread": "thread_sums", "instance": "instance_sums", "process": "proc_sums"}[scope]
            if scope == "instance":  # instances are numbered in file order
                numbers["nr_threads"] = _csv_int(check, row.get("nr_threads") or "", f"{where}, column nr_threads")
            else:
                numbers[{"thread": "thread_no", "process": "process"}[scope]] = number
            summary.setdefault(key, []).append(numbers)
        else:
            check.fail(f"{where}, column scope", f"'{scope}' is not one of sums, thread, instance, process")
    document["regions"] = list(regions.values())
    document["summaries"] = list(summaries.values())
    return document


def _csv_int(check: _Checker, text: str, where: str, limit: int = MAX_INTEGER) -> int:
    try:
        value = float(text)
    except ValueError:
        check.fail(where, f"expected an integer, got '{text}'")
    return check.number(value, where, integer=True, limit=limit)


def _convert(path: Path, doc) -> tuple[dict, dict]:
    check = _Checker(path)
    check.object(
        doc,
        "document",
        {"cosydb_summary", "paradigm", "nr_processors", "system", "regions", "summaries"},
        {"cosydb_summary", "paradigm", "regions", "summaries"},
    )
    if doc["cosydb_summary"] != FORMAT_VERSION:
        check.fail("cosydb_summary", f"format version {doc['cosydb_summary']}; this cosydb reads {FORMAT_VERSION}")
    paradigm = check.text(doc["paradigm"], "paradigm", ("openmp", "hpf"))
    kinds = OPENMP_KINDS if paradigm == "openmp" else HPF_KINDS
    processors = check.number(doc.get("nr_processors", 1), "nr_processors", integer=True, limit=MAX_PROCESSORS) or 1
    system = check.object(doc.get("system", {}), "system", set(SYSTEM_FIELDS))
    constants = [dict(name=k, value=check.number(v, f"system.{k}")) for k, v in system.items()]
    constants.append(dict(name="nr_processors", value=float(processors)))

    region_fields = {"name", "kind", "parent", "ltype", "no_wait_exit", "decls"}
    regions, ids = [], {}
    for i, r in enumerate(check.list(doc["regions"], "regions")):
        where = f"regions[{i}]"
        check.object(r, where, region_fields, {"name", "kind"})
        name = check.text(r["name"], f"{where}.name")
        if name in ids:
            check.fail(f"{where}.name", f"region '{name}' is defined twice")
        check.text(r["kind"], f"{where}.kind", tuple(kinds))
        ids[name] = len(regions)
        regions.append(r)
    if not regions:
        check.fail("regions", "no regions")
    cnodes, summary_regions, decls = [], [], []
    for i, r in enumerate(regions):
        where = f"regions[{i}]"
        parent = r.get("parent")
        if parent is not None and check.text(parent, f"{where}.parent") not in ids:
            check.fail(f"{where}.parent", f"region '{parent}' is not defined in regions")
        cnodes.append(dict(cnode_id=i, parent_id=ids.get(parent), region_id=i))
        ltype = r.get("ltype")
        if ltype is not None:
            check.text(ltype, f"{where}.ltype", ("DO", "INDEPENDENT", "FORALL"))
        no_wait = r.get("no_wait_exit")
        if no_wait is not None and not isinstance(no_wait, bool):
            check.fail(f"{where}.no_wait_exit", f"expected true or false, got {_shown(no_wait)}")
        summary_regions.append(dict(cnode_id=i, kind=r["kind"], ltype=ltype, no_wait_exit=no_wait))
        for j, d in enumerate(check.list(r.get("decls", []), f"{where}.decls")):
            w = f"{where}.decls[{j}]"
            check.object(d, w, {"name", "alloc", "format"}, {"name"})
            decls.append(
                dict(
                    cnode_id=i,
                    name=check.text(d["name"], f"{w}.name"),
                    alloc=check.text(d["alloc"], f"{w}.alloc", ("DYNAMIC", "STATIC")) if "alloc" in d else None,
                    format=check.text(d["format"], f"{w}.format", ("PRESCRIPTIVE", "TRANSCRIPTIVE", "DESCRIPTIVE"))
                    if "format" in d
                    else None,
                )
            )
    _check_tree(check, cnodes, regions)

    sm, variables, hpf, seen = [], [], [], set()
    thread_location = (lambda t: t << 32) if paradigm == "openmp" else (lambda p: p)
    for i, s in enumerate(check.list(doc["summaries"], "summaries")):
        where = f"summaries[{i}]"
        if paradigm == "openmp":
            check.object(
                s, where, {"region", "nr_executions", "sums", "thread_sums", "instance_sums"}, {"region", "sums"}
            )
        else:
            check.object(s, where, {"region", "sums", "proc_sums"}, {"region", "sums"})
        name = check.text(s["region"], f"{where}.region")
        if name not in ids:
            check.fail(f"{where}.region", f"region '{name}' is not defined in regions")
        if name in seen:
            check.fail(f"{where}.region", f"region '{name}' has two summaries")
        seen.add(name)
        cnode = ids[name]
        if paradigm == "openmp":
            executions = check.number(s.get("nr_executions", 0), f"{where}.nr_executions", integer=True)
            sm.append(_sm_row(check, s["sums"], f"{where}.sums", cnode, None, None, executions, None, variables))
            for j, t in enumerate(check.list(s.get("thread_sums", []), f"{where}.thread_sums")):
                w = f"{where}.thread_sums[{j}]"
                check.object(t, w, {"thread_no", "accessed_variables", *SM_FIELDS}, {"thread_no"})
                thread = check.number(t["thread_no"], f"{w}.thread_no", integer=True)
                if thread >= processors:
                    check.fail(f"{w}.thread_no", f"thread {thread} but nr_processors is {processors}")
                sm.append(_sm_row(check, t, w, cnode, thread_location(thread), None, None, None, variables))
            for j, t in enumerate(check.list(s.get("instance_sums", []), f"{where}.instance_sums")):
                w = f"{where}.instance_sums[{j}]"
                check.object(t, w, {"nr_threads", *SM_FIELDS}, {"nr_threads"})
                threads = check.number(t["nr_threads"], f"{w}.nr_threads", integer=True)
                sm.append(_sm_row(check, t, w, cnode, None, j + 1, None, threads, variables))
        else:
            w = f"{where}.sums"
            check.object(s["sums"], w, set(HPF_FIELDS), {"duration"})
            hpf.append(dict(cnode_id=cnode, location_id=None, **_numbers(check, s["sums"], w, HPF_FIELDS)))
            for j, p in enumerate(check.list(s.get("proc_sums", []), f"{where}.proc_sums")):
                w = f"{where}.proc_sums[{j}]"
                check.object(p, w, {"process", *HPF_FIELDS}, {"process", "duration"})
                process = check.number(p["process"], f"{w}.process", integer=True)
                if process >= processors:
                    check.fail(f"{w}.process", f"process {process} but nr_processors is {processors}")
                hpf.append(
                    dict(cnode_id=cnode, location_id=thread_location(process), **_numbers(check, p, w, HPF_FIELDS))
                )

    region_table = [
        dict(
            region_id=i,
            name=r["name"],
            canonical_name=r["name"],
            description=r["kind"],
            role=kinds[r["kind"]],
            paradigm=paradigm.upper(),
            flags=None,
            source_file=None,
            begin_line=None,
            end_line=None,
        )
        for i, r in enumerate(regions)
    ]
    tables = {
        "regions": region_table,
        "cnodes": cnodes,
        "locations": _locations(paradigm, processors),
        "summary_regions": summary_regions,
        "sm_sums": sm,
        "variable_accesses": variables,
        "hpf_sums": hpf,
        "hpf_decls": decls,
        "system_constants": constants,
    }
    meta = dict(
        creator=f"ASL {paradigm} summary",
        number_of_locations=processors,
        loaded=f"ASL {paradigm} summary input of {len(regions)} regions",
    )
    return tables, meta


def _locations(paradigm: str, processors: int) -> pa.Table:
    """One location per thread (OpenMP: ``t << 32`` of rank 0) or process (HPF: ``p``)."""
    n = np.arange(processors, dtype=np.int64)
    zeros = np.zeros(processors, dtype=np.int32)
    openmp = paradigm == "openmp"
    word = "thread " if openmp else "process "
    return conform(
        "locations",
        pa.table(
            {
                "location_id": pa.array(n << 32 if openmp else n),
                "name": pc.binary_join_element_wise(word, pc.cast(pa.array(n), pa.string()), ""),
                "location_type": pa.array(np.full(processors, "CPU_THREAD")),
                "location_group_id": pa.array(zeros if openmp else n.astype(np.int32)),
                "rank": pa.array(zeros if openmp else n.astype(np.int32)),
                "thread": pa.array(n.astype(np.int32) if openmp else zeros),
                "number_of_events": pa.nulls(processors, pa.int64()),
            }
        ),
    )


def _sm_row(check, obj, where, cnode, location, instance, executions, threads, variables) -> dict:
    if instance is None and location is None:
        check.object(obj, where, {"accessed_variables", *SM_FIELDS}, {"duration"})
    for j, v in enumerate(check.list(obj.get("accessed_variables", []), f"{where}.accessed_variables")):
        w = f"{where}.accessed_variables[{j}]"
        check.object(v, w, {"var_name", "nr_remote_accesses", "size", "page_sums"}, {"var_name", "nr_remote_accesses"})
        var = check.text(v["var_name"], f"{w}.var_name")
        variables.append(
            dict(
                cnode_id=cnode,
                location_id=location,
                var_name=var,
                page_no=None,
                nr_remote_accesses=check.number(v["nr_remote_accesses"], f"{w}.nr_remote_accesses"),
                size_bytes=check.number(v["size"], f"{w}.size") if "size" in v else None,
            )
        )
        for k, p in enumerate(check.list(v.get("page_sums", []), f"{w}.page_sums")):
            wp = f"{w}.page_sums[{k}]"
            check.object(p, wp, {"page_no", "nr_remote_accesses"}, {"page_no", "nr_remote_accesses"})
            variables.append(
                dict(
                    cnode_id=cnode,
                    location_id=location,
                    var_name=var,
                    page_no=check.number(p["page_no"], f"{wp}.page_no", integer=True),
                    nr_remote_accesses=check.number(p["nr_remote_accesses"], f"{wp}.nr_remote_accesses"),
                    size_bytes=None,
                )
            )
    return dict(
        cnode_id=cnode,
        location_id=location,
        instance_no=instance,
        nr_executions=executions,
        nr_threads=threads,
        **_numbers(check, obj, where, SM_FIELDS),
    )


def _check_tree(check: _Checker, cnodes: list[dict], regions: list[dict]) -> None:
    """Parents must not form a cycle nor nest deeper than MAX_DEPTH (each node is walked once)."""
    parent = {c["cnode_id"]: c["parent_id"] for c in cnodes}
    depth: dict[int, int] = {}  # node -> its depth, for nodes whose ancestors end at a root
    for start in parent:
        path, node = {}, start  # a dict: ordered, with set lookup
        while node is not None and node not in depth:
            if node in path:
                check.fail(f"regions[{node}].parent", f"region '{regions[node]['name']}' is its own ancestor")
            path[node] = None
            node = parent[node]
        below = depth[node] if node is not None else 0
        for node in reversed(path):
            below = depth[node] = below + 1
            if below > MAX_DEPTH:
                check.fail(
                    f"regions[{node}].parent",
                    f"region '{regions[node]['name']}' is nested deeper than {MAX_DEPTH} levels",
                )
