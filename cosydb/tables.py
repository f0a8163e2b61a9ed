"""Every table cosydb stores, once: name, Arrow schema with column docs, file layout and writer.

An experiment directory holds one Parquet file per table (``<name>.parquet``), or for a
table written by several reader processes one per reader (``<name>-<k>.parquet``). Who
writes a table:

- ``loader``: a format's reader (``loaders/``), through a ``TableSink``;
- ``load``: ``cosydb load`` itself (the experiment row, the load warnings);
- ``derive``: the materialised objects of ``sql/`` (schema: their SELECT), at load;
- ``report``: the analyses (``cosydb report``, ``cosydb cube``), empty after load.

Every other list of tables (the catalog's views, what a load writes empty, the schema
document, the database's ``COMMENT ON`` text) is derived from ``REGISTRY``.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import pyarrow as pa
import pyarrow.parquet as pq

WRITERS = ("loader", "load", "derive", "report")


def column(name: str, arrow_type: pa.DataType, doc: str = "") -> pa.Field:
    """A column with its one-line description (Arrow field metadata ``doc``)."""
    return pa.field(name, arrow_type, metadata={"doc": doc} if doc else None)


def doc_of(field: pa.Field) -> str:
    return (field.metadata or {}).get(b"doc", b"").decode()


_DUCK_TYPES = {
    "int16": "SMALLINT",
    "int32": "INTEGER",
    "int64": "BIGINT",
    "uint64": "UBIGINT",
    "double": "DOUBLE",
    "string": "VARCHAR",
    "bool": "BOOLEAN",
}


def duckdb_type(field: pa.Field) -> str:
    """The DuckDB type of an Arrow field as DuckDB reads it from Parquet (a dictionary as its values)."""
    if pa.types.is_list(field.type):
        return duckdb_type(field.type.value_field) + "[]"
    arrow_type = getattr(field.type, "value_type", field.type)
    return _DUCK_TYPES[str(arrow_type)]


@dataclass(frozen=True)
class StoredTable:
    name: str
    writer: str
    doc: str
    schema: pa.Schema | None = None  # None: defined by sql/<name>.sql (writer 'derive')
    per_reader: bool = False  # one file per reader process, location partition or slice, <name>-<k>.parquet
    file: str | None = None  # the file stem, when it differs from the name
    keyed: bool = False  # the file carries experiment_id itself (else the catalog adds it)

    @property
    def stem(self) -> str:
        return self.file or self.name

    def path(self, directory: Path, part: int = 0) -> Path:
        """The file of this table (of reader ``part``) in an experiment directory."""
        return directory / (f"{self.stem}-{part}.parquet" if self.per_reader else f"{self.stem}.parquet")

    def files(self, directory: Path) -> list[Path]:
        """The files of this table in an experiment directory, in reader order; a file that is
        a directory (written by Spark) stands for the Parquet part files in it."""
        if not self.per_reader:
            found = [p for p in [self.path(directory)] if p.exists()]
        else:
            found = sorted(directory.glob(f"{self.stem}-*.parquet"), key=lambda p: int(p.stem.rsplit("-", 1)[1]))
        return [part for p in found for part in (sorted(p.glob("part-*.parquet")) if p.is_dir() else [p])]


_I32, _I64, _U64, _F64, _STR, _BOOL = pa.int32(), pa.int64(), pa.uint64(), pa.float64(), pa.string(), pa.bool_()
_ENUM = pa.dictionary(pa.int16(), pa.string())

#: SmSums numbers (seconds unless named nr_*); duration and region_ctrl are the master thread's.
SM_FIELDS = (
    "duration",
    "non_parallelized_code",
    "nr_remote_accesses",
    "scheduling",
    "additional_calc",
    "cross_thread_dep_ctrl",
    "cross_thread_dep_wait",
    "region_wait",
    "region_ctrl",
    "nr_cache_misses",
)
#: HPFSummary numbers (seconds unless named nr_*), means over the processes executing the region.
HPF_FIELDS = (
    "nr_executions",
    "duration",
    "comm_time",
    "dep_comm_time",
    "align_comm_time",
    "sync_time",
    "idle_time",
    "io_time",
    "compiler_ovh_time",
    "inspector_time",
    "impl_redistr_time",
    "expl_redistr_time",
    "nr_cache_misses",
)

EVENT_PAYLOAD = [
    column("region_id", _I32, "Enter/Leave: the region (regions.region_id)"),
    column("comm_id", _I32, "p2p and collective: the communicator; thread events: the thread team"),
    column("partner", _I32, "p2p: the partner's rank in the communicator"),
    column("tag", _I64, "p2p: the message tag"),
    column("msg_bytes", _I64, "p2p: the message length in bytes"),
    column("request_id", _I64, "non-blocking p2p: the request"),
    column("coll_op", _ENUM, "MPI_COLLECTIVE_END: the operation (BARRIER, ALLREDUCE, ...)"),
    column("root", _I32, "MPI_COLLECTIVE_END: the root's rank in the communicator"),
    column("bytes_sent", _I64, "MPI_COLLECTIVE_END: bytes this location sent"),
    column("bytes_received", _I64, "MPI_COLLECTIVE_END: bytes this location received"),
    column("paradigm", _ENUM, "thread fork/join and locks: OPENMP, PTHREAD, ..."),
    column("thread_count", _I32, "fork: the requested team size"),
    column("lock_id", _I64, "lock events: the lock"),
    column("acquisition_order", _I64, "lock events: the acquisition's number on its lock"),
    column("task_id", _I64, "OpenMP task events (old records): the task"),
    column("creating_thread", _I32, "thread task events: the creating thread"),
    column("generation_number", _I32, "thread task events: the task's number on its creator"),
    column("sequence_count", _I64, "thread create/begin/wait/end: the thread's sequence"),
    column("parameter_id", _I32, "parameter events: the parameter (parameters.parameter_id)"),
    column("parameter_value", _I64, "integer parameter events: the value"),
    column("string_id", _I32, "string parameter events and PROGRAM_BEGIN: strings.string_id"),
    column("exit_status", _I64, "PROGRAM_END: the exit status"),
    column("measurement_mode", _ENUM, "MEASUREMENT_ON_OFF: ON or OFF"),
    column("metric_id", _I32, "METRIC: the metric (its values are in metric_values)"),
]

_TABLES = [
    StoredTable(
        "experiments",
        "load",
        "One row per experiment (a trace, profile or summary input).",
        pa.schema(
            [
                column("experiment_id", _I64, "the experiment (1, 2, ... in load order)"),
                column("name", _STR, "unique within the database; the run directory's name by default"),
                column("load_time", _STR, "when it was loaded (UTC, ISO 8601)"),
                column("tool_version", _STR, "the cosydb that loaded it"),
                column("schema_version", _I64, "the layout version of its files"),
                column("is_profile", _BOOL, "true for a source without events (profile, summary input)"),
                column("timer_resolution", _I64, "ticks per second of the event times (NULL without events)"),
                column("global_offset", _I64, "the tick of time 0 (seconds columns count from it)"),
                column("trace_length", _I64, "ticks from the first to the last event, as the trace states it"),
                column("creator", _STR, "the tool that wrote the source (e.g. Score-P 8.4)"),
                column("source_path", _STR, "the file read"),
                column("format", _STR, "the loader: otf2, otf (VampirTrace OTF 1), cube4, summary"),
                column("number_of_events", _I64, "events read (NULL for a profile)"),
                column("number_of_locations", _I64, "locations (threads) of the run"),
                column("first_time", _I64, "the earliest event's tick"),
                column("last_time", _I64, "the latest event's tick"),
            ]
        ),
        file="experiment",
        keyed=True,
    ),
    StoredTable(
        "events",
        "loader",
        "Every event record, one row per (location, seq), sorted by location then "
        "seq; payload columns are filled by type (NULL otherwise).",
        pa.schema(
            [
                column("location_id", _I64, "the location (thread) that recorded it"),
                column("seq", _I64, "1-based position on its location"),
                column("time", _U64, "timer ticks (experiments.timer_resolution per second), clock offsets applied"),
                column("type", _ENUM, "ENTER, LEAVE, MPI_SEND, MPI_ISEND_COMPLETE, ..., UNKNOWN"),
                *EVENT_PAYLOAD,
            ]
        ),
        per_reader=True,
    ),
    StoredTable(
        "metric_values",
        "loader",
        "The values of METRIC events (hardware counters), one row per member.",
        pa.schema(
            [
                column("location_id", _I64, "the location"),
                column("seq", _I64, "the METRIC event's seq"),
                column("time", _U64, "ticks"),
                column("metric_id", _I32, "metrics.metric_id (the metric class or instance)"),
                column("member_index", _I32, "the member of the metric class"),
                column("value", _F64, "the value in the metric's unit"),
            ]
        ),
        per_reader=True,
    ),
    StoredTable(
        "locations",
        "loader",
        "The locations (threads) of the run.",
        pa.schema(
            [
                column("location_id", _I64, "OTF2's id; Score-P: thread << 32 | rank"),
                column("name", _STR),
                column("location_type", _STR, "CPU_THREAD, GPU, METRIC"),
                column("location_group_id", _I32, "its process"),
                column("rank", _I32, "the MPI rank (or process number)"),
                column("thread", _I32, "the thread number within the process"),
                column("number_of_events", _I64),
            ]
        ),
    ),
    StoredTable(
        "location_groups",
        "loader",
        "The processes of the run.",
        pa.schema(
            [
                column("location_group_id", _I32),
                column("name", _STR),
                column("group_type", _STR),
                column("system_tree_node_id", _I32, "the node it ran on"),
                column("rank", _I32),
            ]
        ),
    ),
    StoredTable(
        "system_tree",
        "loader",
        "The machine: nodes, from the system down.",
        pa.schema(
            [
                column("system_tree_node_id", _I32),
                column("name", _STR),
                column("class_name", _STR, "machine, node, ..."),
                column("parent_id", _I32),
            ]
        ),
    ),
    StoredTable(
        "regions",
        "loader",
        "Code regions (functions, MPI calls, OpenMP constructs).",
        pa.schema(
            [
                column("region_id", _I32),
                column("name", _STR, "as recorded (C++ names mangled)"),
                column("canonical_name", _STR),
                column("description", _STR),
                column("role", _STR, "OTF2 region role: FUNCTION, POINT2POINT, BARRIER, COLL_ALL2ALL, ..."),
                column("paradigm", _STR, "MPI, OPENMP, USER, COMPILER, MEASUREMENT_SYSTEM, ..."),
                column("flags", _STR),
                column("source_file", _STR),
                column("begin_line", _I32),
                column("end_line", _I32),
            ]
        ),
    ),
    StoredTable(
        "callpath_definitions",
        "loader",
        "The call tree a trace defines (OTF2 CALLPATH definitions, written by Score-P when it "
        "also profiled the run); Scalasca's PEARL numbers its call paths by these ids.",
        pa.schema(
            [
                column("callpath_def_id", _I32, "the definition's OTF2 id"),
                column("parent_def_id", _I32, "the parent call path's callpath_def_id; null for a root"),
                column("region_id", _I32, "the called region (regions.region_id)"),
                column("region_ids", pa.list_(_I32), "the regions from the root down, region_id last"),
            ]
        ),
    ),
    StoredTable(
        "groups",
        "loader",
        "OTF2 groups (of locations or communicator ranks).",
        pa.schema(
            [
                column("group_id", _I32),
                column("name", _STR),
                column("group_type", _STR),
                column("paradigm", _STR),
                column("size", _I32),
            ]
        ),
    ),
    StoredTable(
        "group_members",
        "loader",
        "The members of each group, in order.",
        pa.schema(
            [
                column("group_id", _I32),
                column("position", _I32),
                column("member_id", _I64),
            ]
        ),
    ),
    StoredTable(
        "communicators",
        "loader",
        "MPI communicators and thread teams.",
        pa.schema(
            [
                column("comm_id", _I32),
                column("name", _STR),
                column("group_id", _I32),
                column("parent_id", _I32),
                column("paradigm", _STR),
                column("size", _I32),
                column("is_self", _BOOL, "MPI_COMM_SELF-like"),
            ]
        ),
    ),
    StoredTable(
        "communicator_members",
        "loader",
        "Communicator rank -> location.",
        pa.schema(
            [
                column("comm_id", _I32),
                column("comm_rank", _I32),
                column("location_id", _I64),
            ]
        ),
    ),
    StoredTable(
        "metrics",
        "loader",
        "Hardware counters and other metrics (one row per member).",
        pa.schema(
            [
                column("metric_id", _I32),
                column("metric_kind", _STR, "class, instance or profile"),
                column("member_index", _I32),
                column("member_id", _I32),
                column("name", _STR, "e.g. PAPI_L2_TCM"),
                column("description", _STR),
                column("metric_type", _STR),
                column("metric_mode", _STR, "e.g. ACCUMULATED_START"),
                column("value_type", _STR),
                column("base", _STR),
                column("exponent", _I64),
                column("unit", _STR),
                column("occurrence", _STR),
            ]
        ),
    ),
    StoredTable(
        "parameters",
        "loader",
        "Score-P parameters (of parameter events).",
        pa.schema(
            [
                column("parameter_id", _I32),
                column("name", _STR),
                column("parameter_type", _STR),
            ]
        ),
    ),
    StoredTable(
        "strings",
        "loader",
        "The trace's strings that events reference.",
        pa.schema(
            [
                column("string_id", _I32),
                column("text", _STR),
            ]
        ),
    ),
    StoredTable(
        "file_operations",
        "loader",
        "File operations a trace records apart from its events (OTF FileOperation, "
        "Begin/EndFileOperation): one row per operation; the I/O calls around them are regions.",
        pa.schema(
            [
                column("location_id", _I64),
                column("time", _U64, "its start, raw ticks (as events.time)"),
                column("duration", _U64, "raw ticks"),
                column("file", _STR, "the file's name"),
                column("handle_id", _U64, "the open file it operates on (one per open)"),
                column(
                    "operation", _STR, "open, close, read, write, seek, unlink, rename, dup, sync, lock, unlock, other"
                ),
                column("failed", _BOOL, "the operation failed (could not open, read or write all bytes, ...)"),
                column("bytes", _U64, "read or written; for seek the new position; 0 for open and close"),
            ]
        ),
    ),
    StoredTable(
        "record_counts",
        "loader",
        "Records read per location and type.",
        pa.schema(
            [
                column("location_id", _I64),
                column("type", _STR, "event type"),
                column("count", _I64),
                column("has_payload", _BOOL, "false: stored with type, time and location only (RMA, I/O, ...)"),
            ]
        ),
    ),
    StoredTable(
        "load_warnings",
        "load",
        "What the load found doubtful in the source (timestamps, "
        "unmatched messages, unbalanced regions, unknown records, ...).",
        pa.schema(
            [
                column("check", _STR, "the check: timestamps_nondecreasing, unmatched_messages, ..."),
                column("location_id", _I64, "the location, NULL for the whole run"),
                column("count", _I64, "how often"),
                column("detail", _STR, "what, with the first instance"),
            ]
        ),
    ),
    StoredTable(
        "cnodes",
        "loader",
        "A profile's call tree (empty for a trace).",
        pa.schema(
            [
                column("cnode_id", _I64),
                column("parent_id", _I64),
                column("region_id", _I32),
            ]
        ),
    ),
    StoredTable(
        "profile_metrics",
        "loader",
        "A profile's metric tree.",
        pa.schema(
            [
                column("metric_id", _I32),
                column("name", _STR, "Cube's unique name: time, visits, PAPI_TOT_CYC, ..."),
                column("display_name", _STR),
                column("parent_id", _I32),
                column("unit", _STR, "Cube's: sec, occ, bytes"),
                column("data_type", _STR),
                column("metric_type", _STR, "INCLUSIVE or EXCLUSIVE (how Cube stores it)"),
                column("description", _STR),
                column("loaded", _BOOL, "false for a non-numeric type"),
            ]
        ),
    ),
    StoredTable(
        "profile_values",
        "loader",
        "A profile's values, cells that are not zero.",
        pa.schema(
            [
                column("metric_id", _I32),
                column("cnode_id", _I64),
                column("location_id", _I64),
                column("inclusive", _F64, "with the callees, in the metric's unit"),
                column("exclusive", _F64, "without them (NULL for min/max metrics)"),
            ]
        ),
    ),
    StoredTable(
        "summary_regions",
        "loader",
        "ASL summary input: the regions (docs/summary-input.md).",
        pa.schema(
            [
                column("cnode_id", _I64),
                column("kind", _STR, "the ASL class"),
                column("ltype", _STR, "loop type"),
                column("no_wait_exit", _BOOL),
            ]
        ),
    ),
    StoredTable(
        "sm_sums",
        "loader",
        "ASL summary input: OpenMP region summaries (SmSums fields).",
        pa.schema(
            [
                column("cnode_id", _I64),
                column("location_id", _I64, "NULL for the means"),
                column("instance_no", _I64),
                column("nr_executions", _I64),
                column("nr_threads", _I64),
            ]
            + [column(f, _F64, "a count" if f.startswith("nr_") else "seconds") for f in SM_FIELDS]
        ),
    ),
    StoredTable(
        "variable_accesses",
        "loader",
        "ASL summary input: remote accesses per variable and page.",
        pa.schema(
            [
                column("cnode_id", _I64),
                column("location_id", _I64),
                column("var_name", _STR),
                column("page_no", _I64, "NULL for the whole variable"),
                column("nr_remote_accesses", _F64),
                column("size_bytes", _F64),
            ]
        ),
    ),
    StoredTable(
        "hpf_sums",
        "loader",
        "ASL summary input: HPF region summaries (HPFSummary fields, seconds).",
        pa.schema(
            [column("cnode_id", _I64), column("location_id", _I64, "NULL for the means")]
            + [column(f, _F64, "a count" if f.startswith("nr_") else "seconds") for f in HPF_FIELDS]
        ),
    ),
    StoredTable(
        "hpf_decls",
        "loader",
        "ASL summary input: HPF array declarations.",
        pa.schema(
            [
                column("cnode_id", _I64),
                column("name", _STR),
                column("alloc", _STR),
                column("format", _STR),
            ]
        ),
    ),
    StoredTable(
        "system_constants",
        "loader",
        "ASL summary input: machine constants.",
        pa.schema(
            [
                column("name", _STR),
                column("value", _F64),
            ]
        ),
    ),
    StoredTable(
        "property_results",
        "report",
        "One row per (property, call path, location) result of the last "
        "report on the experiment, or one row per property that could not be evaluated "
        "(docs/properties.md).",
        pa.schema(
            [
                column("property", _STR),
                column("parent", _STR, "the property it specialises"),
                column("kind", _STR),
                column("unit", _STR, "s, count, bytes or ratio"),
                column("callpath_id", _I64),
                column("callpath", _STR, "e.g. prog/main/MPI_Recv"),
                column("region_id", _I64, "the call path's region, or the function of a whole-function row"),
                column("region", _STR, "its name"),
                column("location_id", _I64, "NULL: all processes"),
                column("rank", _I64),
                column("thread", _I64),
                column("condition_id", _STR, "which of the property's conditions (or the variable, ...)"),
                column("condition", _BOOL, "does the property hold"),
                column("confidence", _F64, "in [0, 1]"),
                column("severity", _F64, "for times: value / time of the rank basis"),
                column("value", _F64, "in unit (seconds for s)"),
                column("is_problem", _BOOL, "condition holds and severity > threshold"),
                column("details", _STR, "JSON"),
                column("status", _STR, "evaluated, or 'not evaluable: why'"),
                column("threshold", _F64),
                column("rank_basis", _STR),
                column("evaluated_at", _STR, "UTC, ISO 8601"),
            ]
        ),
    ),
    StoredTable(
        "property_evaluation",
        "report",
        "What identifies the evaluation whose rows property_results holds (one row; none "
        "when another command, cube or diff, wrote results since): a report with the same "
        "fingerprint, parameters and engine reads those rows instead of evaluating the catalog "
        "again (cosydb report --fresh evaluates).",
        pa.schema(
            [
                column(
                    "fingerprint",
                    _STR,
                    "SHA-256 of the catalog's files (built-in and plug-ins), the sql/ objects, "
                    "cosydb's code and DuckDB's version",
                ),
                column(
                    "parameters",
                    _STR,
                    "JSON: the values bound ($p_name; --param, --rank-basis, --region) and the baseline experiment",
                ),
                column("engine", _STR, "duckdb or spark"),
                column(
                    "entries",
                    pa.list_(_STR),
                    "the entries (properties and patterns) whose stored rows it evaluated; NULL: the whole catalog",
                ),
                column("evaluated_at", _STR, "UTC, ISO 8601"),
            ]
        ),
    ),
    StoredTable(
        "property_catalog",
        "report",
        "The catalog entries of the last report on the experiment "
        "(plug-ins included), in tree order: what the report's ranking (reports/problems.sql) reads.",
        pa.schema(
            [
                column("name", _STR),
                column("kind", _STR, "property, pattern or category"),
                column("parent", _STR, "the entry it is a part of"),
                column("unit", _STR),
                column("wait_state", _BOOL, "time lost waiting for a named cause: ranked first"),
                column("wait_class", _STR, "a wait state's delay class: delay_<class> finds what caused it"),
                column("wait_label", _STR, "how the report names the waiting its class explains"),
                column("problem", _BOOL, "false for a metric the report never ranks (critical_path, ...)"),
                column("info", _STR, "one line"),
                column("family", _STR, "its folder of properties/: asl_mpi, cre, scalasca, ..."),
                column("same_as", _STR, "the property whose value this one's equals at each of its places"),
                column("position", _I64, "in tree order"),
                column("depth", _I64, "0 for a root"),
                column("ancestors", pa.list_(_STR), "the parent chain, nearest first"),
            ]
        ),
    ),
    StoredTable(
        "severity_cube",
        "report",
        "The time_cube pattern: (metric, call path, location) -> value over Scalasca's metric hierarchy.",
        pa.schema(
            [
                column("metric", _STR),
                column("parent", _STR),
                column("unit", _STR, "s, count or bytes"),
                column("callpath_id", _I64),
                column("location_id", _I64),
                column("inclusive", _F64, "with the sub-metrics, as Scalasca and Cube show it"),
                column("exclusive", _F64, "without them"),
            ]
        ),
    ),
]

#: The columns a property's SELECT returns (docs/contributing.md), in this order: those of
#: ``property_results`` that the engine does not add (names, locations, flags, the report's settings).
PROPERTY_ROW = (
    "callpath_id",
    "region_id",
    "location_id",
    "condition_id",
    "condition",
    "confidence",
    "severity",
    "value",
    "details",
)

#: name -> table, for every table with a fixed schema (the ``derive`` tables come from ``sql/``).
REGISTRY: dict[str, StoredTable] = {t.name: t for t in _TABLES}


def derived() -> dict[str, StoredTable]:
    """The materialised objects of ``sql/`` (writer ``derive``), parents first."""
    from . import sqlviews

    objects = sqlviews.load_objects()
    return {
        o.name: StoredTable(o.name, "derive", o.doc, per_reader=o.partitioned or o.sliced_by is not None)
        for o in sqlviews.ordered(objects, set(REGISTRY))
        if o.is_table
    }


def stored() -> dict[str, StoredTable]:
    """Every stored table: the registry's and the derived ones."""
    return REGISTRY | derived()


def schema(name: str) -> pa.Schema:
    return REGISTRY[name].schema


def conform(name: str, data) -> pa.Table:
    """``data`` (an Arrow table, record batches or row dicts) as table ``name``'s schema:
    the registry's columns in order; a missing or extra column is an error."""
    target = schema(name)
    if isinstance(data, pa.RecordBatch):
        data = pa.Table.from_batches([data])
    elif isinstance(data, list) and data and isinstance(data[0], pa.RecordBatch):
        data = pa.Table.from_batches(data)
    elif not isinstance(data, pa.Table):
        rows = list(data)
        extra = {k for row in rows for k in row} - set(target.names)
        if extra:
            raise ValueError(f"table {name}: no column(s) {', '.join(sorted(extra))}")
        return pa.Table.from_pylist(rows, schema=target)
    if set(data.column_names) != set(target.names):
        missing, extra = set(target.names) - set(data.column_names), set(data.column_names) - set(target.names)
        raise ValueError(
            f"table {name}: columns differ from the registry (missing {sorted(missing)}, extra {sorted(extra)})"
        )
    return data.select(target.names).cast(target)


class TableSink:
    """Where a loader puts its tables: the only code that names the files of an experiment.

    ``write(name, data)`` stores a whole table (for a per-reader table: the next reader's
    file); ``path(name, part)`` is the file reader process ``part`` writes itself
    (per-reader tables only). ``finish()`` writes every table of the loaders and the
    reports that nobody wrote, empty, and refuses a file no table owns."""

    def __init__(self, directory: Path):
        self.directory = Path(directory)

    def _table(self, name: str) -> StoredTable:
        table = REGISTRY.get(name)
        if table is None or table.writer != "loader":
            raise ValueError(f"a loader writes no table '{name}' (see cosydb/tables.py)")
        return table

    def write(self, name: str, data) -> Path:
        table = self._table(name)
        part = len(table.files(self.directory)) if table.per_reader else 0
        target = table.path(self.directory, part)
        if target.exists():
            raise ValueError(f"table {name} is written twice")
        pq.write_table(conform(name, data), target, compression="zstd")
        return target

    def path(self, name: str, part: int) -> Path:
        table = self._table(name)
        if not table.per_reader:
            raise ValueError(f"table {name} is one file; hand it to write()")
        return table.path(self.directory, part)

    def finish(self) -> None:
        owned = {p.name for t in REGISTRY.values() for p in t.files(self.directory)}
        stray = sorted(p.name for p in self.directory.glob("*.parquet") if p.name not in owned)
        if stray:
            raise ValueError(f"files no table owns: {', '.join(stray)}")
        for table in REGISTRY.values():
            if table.writer in ("loader", "report") and not table.files(self.directory):
                pq.write_table(table.schema.empty_table(), table.path(self.directory))
