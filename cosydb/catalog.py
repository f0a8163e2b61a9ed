"""The property catalog: discover property files and validate their headers.

A property file ``<dir>/<family>/<name>.sql`` defines one ASL property, CRE
pattern or category called ``<name>``. It opens with a Jinja comment holding
YAML, which never reaches DuckDB::

    {#---
    kind: property            # property | pattern | category
    parent: comm_cost         # the property this one specialises (or null)
    unit: s                   # s | count | bytes | ratio
    wait_state: true          # optional: time lost waiting for a named cause (a "why"), or
    wait_state: {class: latesender, label: Late Sender}   # and its delay class: the root causes
                              # (delay_<class>) explain it, the report names them after its label
    wait_state: {completion: true}   # or time a call takes to complete after its partners all
                              # arrived (Scalasca's *_completion): ranked, but no waiting for a partner
    sums: children            # optional, a category: the sum of its sub-metrics' values
    problem: false            # optional: a metric, not a problem (the report never ranks it)
    same_as: mpi_latesender   # optional, a property: at each of its places its value is that
                              # property's there (one wait measured two ways: the report lists it once)
    timeline: mpi_latesender_timeline   # optional, a property: the pattern of its instances as
                              # intervals of the timeline (TIMELINE_COLUMNS; cosydb export --format perfetto)
    on_demand: true           # optional, a pattern: evaluated only where asked for or read, not
                              # with the whole catalog (a timeline)
    columns: {callpath_id: BIGINT, idle_s: DOUBLE}   # a pattern's output columns (checked)
    added_columns: {idle_s: DOUBLE}   # or, a pattern refining its parent pattern: the
                              # columns after the parent's (none: the parent's columns)
    info: One line.
    description: What is measured, with its source.
    diagnosis: What to do about it.
    confidence: 1             # documentation of the CONFIDENCE expression
    params:
      p_region: {default: null, type: VARCHAR, doc: Focus region r.}
      p_counter: {default: PAPI_L2_TCM, counter: true, doc: A metric that must be recorded.}
    ---#}
    select ...

A property's SELECT returns the fixed result shape (``RESULT_COLUMNS``); a
pattern returns its matches (usually with ``callpath_id`` and ``location_id``),
which properties aggregate, with the columns its header declares; a category has no body and only structures the
hierarchy. The default report ranks wait states (``wait_state: true``: Late
Sender, barrier waits, idle threads, ...) and shows the other properties that
hold at the same call path (costs, distribution, frequency) on their rows.
Files under ``templates/`` hold Jinja macros (ASL templates and
metaproperties) that property files import; files starting with ``_`` are
skipped.

An entry that instantiates the same template as another may say ``like: other``:
it takes that entry's header and overrides the keys it gives (``params`` key by
key), as ASL's ``PROPERTY CacheCost<L2CacheCostFunc> L2CacheMisses``. A
parameter with ``counter: true`` names a hardware metric the experiment must have.
"""

from __future__ import annotations

import hashlib
import re
from dataclasses import dataclass, field
from importlib import resources
from pathlib import Path

import yaml

from . import tables
from .errors import CosyError

KINDS = ("property", "pattern", "category")
UNITS = ("s", "count", "bytes", "ratio")
REQUIRED = {"kind", "parent", "unit", "info", "description", "diagnosis"}
OPTIONAL = {"confidence", "params", "requires", "wait_state", "columns", "added_columns", "sums", "problem", "same_as"}
OPTIONAL |= {"timeline", "on_demand"}
#: The columns of a timeline pattern: per instance of a property, where on which location
#: it starts (seconds since the experiment's global offset), for how long, at which call path,
#: and what the interval is (or NULL).
TIMELINE_COLUMNS = {
    "property": "VARCHAR",
    "location_id": "BIGINT",
    "start_s": "DOUBLE",
    "idle_s": "DOUBLE",
    "callpath_id": "BIGINT",
    "note": "VARCHAR",
}
PARAM_KEYS = {"default", "type", "doc", "counter"}
PARAM_TYPES = ("VARCHAR", "DOUBLE", "BIGINT", "BOOLEAN")
#: What ``requires`` may name: the data an entry needs, the query (over the catalog's views;
#: ``$id`` the experiment, ``$baseline`` the baseline experiment or NULL) that is true when
#: the experiment has it, and the status of an entry when it has not.
REQUIREMENTS = {
    "trace": ("SELECT NOT is_profile FROM experiments WHERE experiment_id = $id", "not evaluable: needs a trace"),
    "papi": ("SELECT count(*) > 0 FROM metrics WHERE experiment_id = $id", "not evaluable: no PAPI metrics"),
    "baseline": ("SELECT $baseline IS NOT NULL", "not evaluable: needs a sequential baseline experiment (--baseline)"),
    "openmp": (
        "SELECT count(*) > 0 FROM parallel_instances WHERE experiment_id = $id",
        "not evaluable: no OpenMP parallel regions in the trace",
    ),
    # the summaries' own rows (every one has its region and call path: loaders/summary_input.py),
    # not the views of sql/ joining them, which read every experiment's files (the views file's
    # views bind their tables there, past database.experiments_only: 90 ms among 64 runs)
    "openmp_summary": (
        "SELECT (SELECT count(*) FROM sm_sums WHERE experiment_id = $id)"
        " + (SELECT count(*) FROM parallel_instances WHERE experiment_id = $id) > 0",
        "not evaluable: no OpenMP region summaries (ASL summary input) or OpenMP trace",
    ),
    "hpf_summary": (
        "SELECT count(*) > 0 FROM hpf_sums WHERE experiment_id = $id",
        "not evaluable: no HPF region summaries (ASL summary input)",
    ),
    **{
        name: (
            f"SELECT count(*) > 0 FROM system_constants WHERE experiment_id = $id AND name = '{name}'",
            f"not evaluable: no machine constant {name} (ASL summary input, system)",
        )
        for name in ("remote_access_time", "cache_line_size", "parallel_region_cost")
    },
}
#: The columns every property returns, in this order, with their DuckDB types.
#: region_id is set (and callpath_id NULL) only by properties of a function as a whole.
RESULT_COLUMNS = {
    name: tables.duckdb_type(tables.schema("property_results").field(name)) for name in tables.PROPERTY_ROW
}

_HEADER = re.compile(r"\A\s*\{#---\n(.*?)\n---#\}\n?", re.S)


@dataclass
class Property:
    name: str
    kind: str
    parent: str | None
    unit: str
    info: str
    description: str
    diagnosis: str
    path: Path
    body: str
    root: Path
    confidence: str = "1"
    params: dict = field(default_factory=dict)
    requires: list = field(default_factory=list)
    wait_state: bool = False
    wait_completion: bool = False  # a wait state that is the tail of a synchronisation, not waiting for a partner
    wait_class: str | None = None  # Scalasca's delay class of a wait state: delay_<class> finds its causes
    wait_label: str | None = None  # how the report names the waiting a wait class explains
    columns: dict = field(default_factory=dict)
    sums_children: bool = False  # a category whose value is the sum of its sub-metrics'
    problem: bool = True  # False: a metric the default report never ranks
    same_as: str | None = None  # the property whose value this one's equals at each of its places
    timeline: str | None = None  # the pattern of its instances as intervals (TIMELINE_COLUMNS)
    on_demand: bool = False  # a pattern evaluated only where asked for or read

    @property
    def family(self) -> str:
        """The folder of the entry under its properties directory (asl_mpi, cre, scalasca, ...; a
        file at the top of a plug-in directory: "")."""
        parts = self.path.relative_to(self.root).parts
        return parts[0] if len(parts) > 1 else ""


def builtin_dir() -> Path:
    return Path(str(resources.files("cosydb.properties")))


#: libyaml's safe loader where PyYAML was built with it (about 10x faster), else PyYAML's own.
_YAML_LOADER = getattr(yaml, "CSafeLoader", yaml.SafeLoader)


def _read(path: Path) -> tuple[dict, str]:
    """The YAML header and the SQL body of one property file."""
    text = path.read_text()
    match = _HEADER.match(text)
    if not match:
        raise CosyError(path, "no '{#--- ... ---#}' YAML header at the top")
    try:
        header = yaml.load(match.group(1), Loader=_YAML_LOADER) or {}
    except yaml.YAMLError as error:
        raise CosyError(path, f"header is not valid YAML ({' '.join(str(error).split())})") from None
    if not isinstance(header, dict):
        raise CosyError(path, "header must be a YAML mapping")
    return header, text[match.end() :]


def _build(path: Path, root: Path, header: dict, body: str, entry_name: str | None = None) -> Property:
    """Validate a (resolved) header and make the entry (``entry_name``: default the file's stem)."""
    missing = REQUIRED - set(header) - ({"diagnosis"} if header.get("kind") == "category" else set())
    unknown = set(header) - REQUIRED - OPTIONAL
    if missing:
        raise CosyError(path, f"header lacks {', '.join(sorted(missing))}")
    if unknown:
        raise CosyError(path, f"header has unknown key(s) {', '.join(sorted(unknown))}")
    if header["kind"] not in KINDS:
        raise CosyError(path, f"kind must be one of {', '.join(KINDS)}")
    if header["unit"] not in UNITS:
        raise CosyError(path, f"unit must be one of {', '.join(UNITS)}")
    params = header.get("params") or {}
    for name, spec in params.items():
        if not name.startswith("p_") or not isinstance(spec, dict) or set(spec) - PARAM_KEYS:
            raise CosyError(path, f"parameter '{name}': names start with p_ and take {sorted(PARAM_KEYS)}")
        if spec.get("type", "VARCHAR") not in PARAM_TYPES:
            raise CosyError(path, f"parameter '{name}': type must be one of {', '.join(PARAM_TYPES)}")
        if spec.get("counter") and spec.get("type", "VARCHAR") != "VARCHAR":
            raise CosyError(path, f"parameter '{name}': a counter parameter names a metric (VARCHAR)")
    requires = header.get("requires") or []
    if set(requires) - set(REQUIREMENTS):
        raise CosyError(path, f"requires must list only {', '.join(REQUIREMENTS)}")
    columns = header.get("columns") or {}
    if header["kind"] == "pattern" and not columns:
        raise CosyError(path, "a pattern declares its output columns (columns: {name: TYPE, ...}) or refines one")
    if header["kind"] != "pattern" and columns:
        raise CosyError(path, "only a pattern declares columns (a property returns the fixed result row)")
    if not isinstance(columns, dict) or not all(isinstance(t, str) for t in columns.values()):
        raise CosyError(path, "columns must map each column name to a DuckDB type")
    wait = header.get("wait_state", False)
    declared = isinstance(wait, dict) and set(wait) == {"class", "label"}
    completion = wait == {"completion": True}
    if not (
        isinstance(wait, bool) or completion or (declared and all(isinstance(v, str) and v for v in wait.values()))
    ):
        raise CosyError(
            path,
            "wait_state: true, {class: its delay class, label: the report's name of it}, or {completion: true}",
        )
    if (declared or completion) and header["kind"] != "property":
        raise CosyError(path, "wait_state: a wait state is a property")
    if "sums" in header and (header["kind"] != "category" or header["sums"] != "children"):
        raise CosyError(path, "sums: children is for a category that sums its sub-metrics")
    if "timeline" in header and (header["kind"] != "property" or not isinstance(header["timeline"], str)):
        raise CosyError(path, "timeline: names the pattern of a property's instances as intervals")
    if "on_demand" in header and (header["kind"] != "pattern" or header["on_demand"] is not True):
        raise CosyError(path, "on_demand: true is for a pattern evaluated only where asked for or read")
    if "problem" in header and header["problem"] is not False:
        raise CosyError(path, "problem: takes only false (a metric the report does not rank)")
    if header["kind"] == "category" and body.strip():
        raise CosyError(path, "a category has no SQL body")
    if header["kind"] != "category" and not body.strip():
        raise CosyError(path, "no SQL body after the header")
    return Property(
        name=entry_name or path.stem,
        kind=header["kind"],
        parent=header["parent"],
        unit=header["unit"],
        info=str(header["info"]).strip(),
        description=str(header["description"]).strip(),
        diagnosis=str(header.get("diagnosis", "")).strip(),
        path=path,
        body=body,
        root=root,
        confidence=str(header.get("confidence", 1)),
        params=params,
        requires=list(requires),
        wait_state=bool(wait),
        wait_completion=completion,
        wait_class=wait["class"] if declared else None,
        wait_label=wait["label"] if declared else None,
        columns={str(k): v.upper() for k, v in columns.items()},
        sums_children="sums" in header,
        problem=header.get("problem", True),
        same_as=header.get("same_as"),
        timeline=header.get("timeline"),
        on_demand="on_demand" in header,
    )


def _resolve(name: str, raw: dict, chain: tuple = ()) -> dict:
    """The header of ``name`` with ``like: other`` expanded (the other entry's header,
    overridden key by key, and parameter by parameter, by this one's) and, for a pattern
    without ``columns``, its parent pattern's columns followed by its ``added_columns`` (a
    specialised pattern keeps the general one's matches: CRE's Late Sender of receive_matches)."""
    header, _, path, _ = raw[name]
    if "like" in header:
        base_name = header["like"]
        if base_name not in raw:
            raise CosyError(path, f"like: '{base_name}' is not a property")
        if base_name in chain:
            raise CosyError(path, "like: chain is circular")
        base = _resolve(base_name, raw, chain + (name,))
        header = {**base, **{k: v for k, v in header.items() if k != "like"}}
        header["params"] = {**(base.get("params") or {}), **(raw[name][0].get("params") or {})}
    parent = header.get("parent")
    if header.get("kind") == "pattern" and not header.get("columns") and parent in raw:
        if parent in chain:
            raise CosyError(path, "parent: chain is circular")
        inherited = _resolve(parent, raw, chain + (name,))
        added = header.get("added_columns") or {}
        if inherited.get("kind") == "pattern" and isinstance(added, dict):
            header = {**header, "columns": {**(inherited.get("columns") or {}), **added}}
    elif "added_columns" in header:
        raise CosyError(path, "added_columns: for a pattern without columns whose parent is a pattern")
    return header


def load(extra_dirs: list[Path] | tuple = ()) -> dict[str, Property]:
    """Built-in properties plus those of ``extra_dirs`` (user plug-ins: directories of
    ``.sql`` and ``.asl`` files, or single ``.asl`` files), by name, validated.
    Parsed again only when a file was added, removed or changed since the last call."""
    return load_fingerprinted(extra_dirs)[0]


def load_fingerprinted(extra_dirs: list[Path] | tuple = ()) -> tuple[dict[str, Property], str]:
    """``load(extra_dirs)`` and the ``fingerprint`` of the files it read, each file read once."""
    files = _files(extra_dirs)
    digest = _digest(files)
    key = (tuple(str(path) for _, paths in files for path in paths), digest)
    if key not in _LOADED:
        if len(_LOADED) >= _KEPT:  # the oldest catalog goes (an ASL file compiles in ~0.25 s)
            del _LOADED[next(iter(_LOADED))]
        _LOADED[key] = _load(files)
    return _LOADED[key], digest


def fingerprint(extra_dirs: list[Path] | tuple = ()) -> str:
    """SHA-256 of the catalog's files (what ``load(extra_dirs)`` reads, templates included):
    each file's place under its root and its content."""
    return _digest(_files(extra_dirs))


def _digest(files: list[tuple[Path, list[Path]]]) -> str:
    digest = hashlib.sha256()
    for number, (root, paths) in enumerate(files):
        for path in paths:
            digest.update(f"{number}\0{path.relative_to(root)}\0".encode())
            digest.update(path.read_bytes())
            digest.update(b"\0")
    return digest.hexdigest()


def _files(extra_dirs: list[Path] | tuple) -> list[tuple[Path, list[Path]]]:
    """The catalog's roots (built-in, then ``extra_dirs``), each with its property, template
    and ASL files."""
    files = []
    for root in [builtin_dir(), *map(Path, extra_dirs)]:
        if root.suffix == ".asl" and root.is_file():  # one ASL specification (cosydb report --asl)
            files.append((root.parent, [root]))
        elif root.is_dir():  # the built-in ASL specifications (properties/asl/) run when named
            asl = sorted(root.rglob("*.asl")) if root != builtin_dir() else []
            files.append((root, sorted([*root.rglob("*.sql"), *asl])))
        else:
            raise CosyError(root, f"{'ASL file' if root.suffix == '.asl' else 'properties directory'} does not exist")
    return files


#: The catalogs parsed in this process, by their files' names and contents (``_digest``),
#: oldest first; a process that loads the built-in catalog and one with --asl in turn parses
#: each once.
_LOADED: dict[tuple, dict[str, Property]] = {}
_KEPT = 8


#: An entry's name, which the templates write into SQL as a view name and a string literal.
_ENTRY_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")


def _load(files: list[tuple[Path, list[Path]]]) -> dict[str, Property]:
    raw: dict[str, tuple[dict, str, Path, Path]] = {}
    asl_read: list[Path] = []  # the ASL files read so far: a later one uses their definitions
    for root, paths in files:
        for path in paths:
            relative = path.relative_to(root)
            if relative.parts[0] == "templates" or path.name.startswith("_"):
                continue
            if path.suffix == ".asl":
                entries = asl_entries(path, asl_read)
                asl_read.append(path)
            else:
                entries = {path.stem: _read(path)}
            for name, (header, body) in entries.items():
                if not _ENTRY_NAME.fullmatch(name):
                    raise CosyError(path, f"'{name}' is not an entry name (a letter or _, then letters, digits, _)")
                if name in raw:
                    raise CosyError(path, f"property '{name}' is already defined in {raw[name][2]}")
                raw[name] = (header, body, path, root)
    catalog = {name: _build(path, root, _resolve(name, raw), body, name) for name, (_, body, path, root) in raw.items()}
    for prop in catalog.values():
        if prop.parent is not None and prop.parent not in catalog:
            raise CosyError(prop.path, f"parent '{prop.parent}' is not a property")
    for prop in catalog.values():
        if prop.same_as is not None:
            twin = catalog.get(prop.same_as)
            if prop.kind != "property" or twin is None or twin.kind != "property" or twin.unit != prop.unit:
                raise CosyError(prop.path, f"same_as: '{prop.same_as}' is not a property of unit {prop.unit}")
            if twin.same_as is not None:
                raise CosyError(prop.path, f"same_as: '{prop.same_as}' is itself the same as '{twin.same_as}'")
        if prop.timeline is not None:
            pattern = catalog.get(prop.timeline)
            if pattern is None or pattern.kind != "pattern" or pattern.columns != TIMELINE_COLUMNS:
                columns = ", ".join(f"{k} {v}" for k, v in TIMELINE_COLUMNS.items())
                raise CosyError(prop.path, f"timeline: '{prop.timeline}' is not a pattern of columns {columns}")
    for prop in catalog.values():  # parent chains end at a root
        seen, node = set(), prop
        while node.parent is not None:
            if node.name in seen:
                raise CosyError(prop.path, "parent chain is circular")
            seen.add(node.name)
            node = catalog[node.parent]
    return catalog


def asl_specification(name: str | Path) -> Path:
    """An ASL file, or the name of a built-in specification (``mpi``: properties/asl/mpi.asl)."""
    builtin = builtin_dir() / "asl" / f"{name}.asl"
    return builtin if "/" not in str(name) and not Path(name).exists() and builtin.is_file() else Path(name)


def asl_entries(path: Path, earlier: list[Path] = ()) -> dict[str, tuple[dict, str]]:
    """The properties of an ASL specification, compiled: name -> (header, SQL); it uses the
    functions and templates of the prelude and of the ``earlier`` specifications. The
    comment lines right above a property are its info (the first) and description."""
    from .asl.compiler import compile_text
    from .asl.parser import read

    text = read(path)
    lines = text.splitlines()
    entries = {}
    compiled, readings = compile_text(path, text, [(p, read(p)) for p in earlier])
    read_as = (
        f"; {len(readings)} place(s) of the file read as the ASL report writes them, not as its grammar"
        f" does (cosydb asl check {path.name} lists them)"
        if readings
        else ""
    )
    for entry in compiled:
        comments, n = [], entry.line - 2
        while n >= 0 and lines[n].lstrip().startswith("//"):
            comments.insert(0, lines[n].lstrip()[2:].strip())
            n -= 1
        header = {
            "kind": entry.kind,
            "parent": None,
            "unit": entry.unit,
            "info": entry.info or (comments[0] if comments else f"ASL property {entry.name} ({path.name})."),
            "description": "\n".join(comments[1:] + ["", entry.asl]).strip(),
            "diagnosis": f"Compiled from ASL: {path.name}, line {entry.line} "
            f"(cosydb explain {entry.name}: its SQL){read_as}.",
        }
        if entry.params:
            header["params"] = entry.params
        if entry.requires:  # what its data model classes need (supplied_data.yaml: requires)
            header["requires"] = entry.requires
        if entry.columns:
            header["columns"] = entry.columns
        entries[entry.name] = (header, entry.sql)
    return entries


def ancestors(catalog: dict[str, Property], name: str) -> list[str]:
    """The parent chain of ``name``, nearest first."""
    chain, up = [], catalog[name].parent
    while up is not None:
        chain.append(up)
        up = catalog[up].parent
    return chain


def tree_order(catalog: dict[str, Property], roots: list[str] | None = None) -> list[tuple[Property, int]]:
    """Every entry with its depth, parents before children, siblings by name; with
    ``roots`` only those entries and their descendants, in the order given."""
    children: dict[str | None, list[Property]] = {}
    for prop in catalog.values():
        children.setdefault(prop.parent, []).append(prop)
    result = []

    def walk(entries, depth):
        for prop in entries:
            result.append((prop, depth))
            walk(sorted(children.get(prop.name, []), key=lambda p: p.name), depth + 1)

    walk(
        [catalog[name] for name in roots]
        if roots is not None
        else sorted(children.get(None, []), key=lambda p: p.name),
        0,
    )
    return result
