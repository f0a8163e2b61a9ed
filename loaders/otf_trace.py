"""Load a VampirTrace OTF (version 1) trace: the ``NAME.otf`` master file with its
``NAME.0.def`` global and ``NAME.<stream>.def`` local definitions and ``NAME.<stream>.events``
streams, each possibly zlib-compressed (``.z``), read through the OTF library
(``otf_library``) into the same tables as an OTF2 archive.

How OTF's records become cosydb's events:

- a process is a location; a process without parent is an MPI rank (ranks numbered in the
  order of the process ids), a process with a parent one of its threads;
- Enter / Leave are ENTER / LEAVE; a Leave of function 0 (VampirTrace's short record) leaves
  the innermost region entered, and a Leave with nothing entered is dropped with a warning;
- SendMsg (at the send call's Enter) and RecvMsg (at the receive call's Leave) are MPI_SEND and
  MPI_RECV, the partner translated to its rank in the message's process group, which is the
  communicator (group 0: all ranks);
- a collective is an MPI_COLLECTIVE_BEGIN and MPI_COLLECTIVE_END pair: from
  BeginCollectiveOperation / EndCollectiveOperation, or from VampirTrace 5's single
  CollectiveOperation record (begin at its time, end after its duration, written before the
  call's Leave); the operation is the name of its DefCollectiveOperation without ``MPI_``;
- a Counter is a METRIC event (its value in ``metric_values``, its DefCounter a metric of
  ``metrics``), moved before the Enter / Leave it follows at the same time (VampirTrace writes
  it after the event, OTF2 and cosydb's counter model before);
- a file operation (FileOperation, or BeginFileOperation / EndFileOperation) is a row of
  ``file_operations`` (its start, duration, file, operation and bytes), not an event; the
  functions of an I/O function group (VampirTrace's ``I/O``: open, read, write, lseek, ...)
  are file I/O regions (role FILE_IO, paradigm IO), whose time is the ASL summaries' IoTime;
- records of other kinds are not read.

The library calls back per record; the events are buffered per process in typed arrays and
written in parts of FLUSH_EVENTS, so memory stays bounded (3M events: 406 MiB, 356k events/s).

Debian's OTF 1.12.5 fails on a compressed stream beyond about 20 KB, and OTF never ends its
zlib streams (one-shot ``zlib.decompress`` refuses them): compressed files are inflated
incrementally into a scratch copy of the trace, which the library then reads.
"""

from __future__ import annotations

import contextlib
import ctypes
import glob
import re
import shutil
import tempfile
import time
import zlib
from array import array
from pathlib import Path

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc

from cosydb.errors import CosyError
from cosydb.tables import conform, schema

from . import LoadResult, otf_library
from .otf_library import LibraryMissing

FORMAT = "otf"
IS_TRACE = True
NAMES_ENCODED = True  # OTF stores names as bytes without saying their encoding
RUN_FILE = "*.otf"
RUN_FILE_DOC = "OTF master file (*.otf)"
FILE_DOC = "an OTF master file (*.otf)"

#: OTF2's region roles of MPI functions (OTF has none), by name without "MPI_"
_MPI_ROLES = {
    **dict.fromkeys(
        ["Send", "Bsend", "Ssend", "Rsend", "Isend", "Ibsend", "Issend", "Irsend", "Recv", "Irecv", "Sendrecv"],
        "POINT2POINT",
    ),
    "Barrier": "BARRIER",
    "Ibarrier": "BARRIER",
    "Bcast": "COLL_ONE2ALL",
    "Scatter": "COLL_ONE2ALL",
    "Scatterv": "COLL_ONE2ALL",
    "Reduce": "COLL_ALL2ONE",
    "Gather": "COLL_ALL2ONE",
    "Gatherv": "COLL_ALL2ONE",
    "Allreduce": "COLL_ALL2ALL",
    "Allgather": "COLL_ALL2ALL",
    "Allgatherv": "COLL_ALL2ALL",
    "Alltoall": "COLL_ALL2ALL",
    "Alltoallv": "COLL_ALL2ALL",
    "Alltoallw": "COLL_ALL2ALL",
    "Reduce_scatter": "COLL_ALL2ALL",
    "Reduce_scatter_block": "COLL_ALL2ALL",
    "Scan": "COLL_OTHER",
    "Exscan": "COLL_OTHER",
}
_STORED = {
    "FILE_OPERATION",
    "BEGIN_FILE_OPERATION",
    "END_FILE_OPERATION",
    "ENTER",
    "LEAVE",
    "SEND",
    "RECEIVE",
    "COUNTER",
    "COLLECTIVE_OPERATION",
    "BEGIN_COLLECTIVE_OPERATION",
    "END_COLLECTIVE_OPERATION",
}
_EVENT_COLUMNS = schema("events").names
#: VampirTrace's function group of file I/O calls ("I/O"; "LIBC-I/O", "IO" alike)
_IO_GROUP = re.compile(r"([A-Za-z]+[-_ ])?I/?O", re.IGNORECASE)
#: OTF_FILEOP_* (the operation's low bits) and the flag of a failed operation
_FILE_OPERATIONS = dict(enumerate(["open", "close", "read", "write", "seek", "unlink", "rename", "dup", "sync"]))
_FILE_OPERATIONS |= {9: "lock", 10: "unlock"}
_FILEOP_BITS, _IOFLAG_IOFAILED = 0x1F, 32


def detect(path: Path) -> bool:
    """A master file: named ``*.otf``."""
    return path.suffix == ".otf"


def read(master: Path, sink, workers: int | None = None, encoding: str = "utf-8") -> LoadResult:
    """Read the trace of the master file ``master`` into the tables of ``sink`` (``workers``
    is not used: the library reads all streams in one time-ordered pass), its names as
    ``encoding`` (``_text``)."""
    from cosydb import interrupts

    try:
        otf_library.library()
    except LibraryMissing as error:
        raise CosyError(master, str(error)) from None
    with interrupts.deferred(), _readable_copy(master) as stub:  # Python callbacks, as for OTF2
        return _load(master, stub, sink, encoding)


def _text(raw: bytes | None, encoding: str) -> str:
    """A name as OTF stores it: bytes of any encoding (KOI8-R, Latin-1, ...; OTF does not
    say which), read as ``encoding``; never fails: a byte that is not of it is written
    escaped (\\xd2), so that two names that differ stay different."""
    return "" if raw is None else raw.decode(encoding, errors="backslashreplace")


@contextlib.contextmanager
def _readable_copy(master: Path):
    """The name stub (``dir/NAME``) the library should open: the trace itself, or where some
    of its files are compressed, a scratch copy with every file inflated."""
    stem = master.name[: -len(".otf")]
    files = sorted(p for p in master.parent.glob(stem + ".*") if p != master)
    if not any(p.suffix == ".z" for p in files):
        yield str(master.parent / stem)
        return
    scratch = Path(tempfile.mkdtemp(prefix="cosydb-otf-"))
    try:
        shutil.copyfile(master, scratch / master.name)
        for path in files:
            if path.suffix == ".z":
                _inflate(path, scratch / path.stem)
            else:
                shutil.copyfile(path, scratch / path.name)
        yield str(scratch / stem)
    finally:
        shutil.rmtree(scratch, ignore_errors=True)


def _inflate(source: Path, target: Path) -> None:
    """Inflate one OTF zlib stream chunk by chunk (OTF leaves its streams unterminated)."""
    inflater = zlib.decompressobj()
    try:
        with open(source, "rb") as src, open(target, "wb") as dst:
            while chunk := src.read(1 << 20):
                dst.write(inflater.decompress(chunk))
            dst.write(inflater.flush())
    except zlib.error as error:
        raise CosyError(source, f"not a readable zlib stream ({error})") from None


class _Definitions:
    """What the definition records say, by token."""

    def __init__(self, encoding: str):
        self.encoding = encoding  # of the names
        self.resolution = None
        self.creator = ""
        self.processes: dict[int, tuple[str, int]] = {}  # id -> (name, parent)
        self.groups: dict[int, tuple[str, list[int]]] = {}  # id -> (name, process ids)
        self.function_groups: dict[int, str] = {}
        self.functions: dict[int, tuple[str, int]] = {}  # id -> (name, function group)
        self.collectives: dict[int, str] = {}  # id -> name
        self.counters: dict[int, tuple[str, int, str]] = {}  # id -> (name, properties, unit)
        self.files: dict[int, str] = {}  # id -> name

    def handlers(self) -> dict:
        h = otf_library.HANDLERS

        def resolution(_u, _stream, ticks, _kv):
            self.resolution = ticks
            return 0

        def creator(_u, _stream, name, _kv):
            self.creator = _text(name, self.encoding)
            return 0

        def process(_u, _stream, pid, name, parent, _kv):
            self.processes[pid] = (_text(name, self.encoding), parent)
            return 0

        def group(_u, _stream, gid, name, n, procs, _kv):
            self.groups[gid] = (_text(name, self.encoding), [procs[i] for i in range(n)])
            return 0

        def function_group(_u, _stream, gid, name, _kv):
            self.function_groups[gid] = _text(name, self.encoding)
            return 0

        def function(_u, _stream, fid, name, gid, _source, _kv):
            self.functions[fid] = (_text(name, self.encoding), gid)
            return 0

        def collective(_u, _stream, cid, name, _type, _kv):
            self.collectives[cid] = _text(name, self.encoding)
            return 0

        def counter(_u, _stream, cid, name, properties, _group, unit, _kv):
            self.counters[cid] = (_text(name, self.encoding), properties, _text(unit, self.encoding))
            return 0

        def file(_u, _stream, fid, name, _group, _kv):
            self.files[fid] = _text(name, self.encoding)
            return 0

        return {
            otf_library.DEFFILE: h[otf_library.DEFFILE](file),
            otf_library.DEFTIMERRESOLUTION: h[otf_library.DEFTIMERRESOLUTION](resolution),
            otf_library.DEFCREATOR: h[otf_library.DEFCREATOR](creator),
            otf_library.DEFPROCESS: h[otf_library.DEFPROCESS](process),
            otf_library.DEFPROCESSGROUP: h[otf_library.DEFPROCESSGROUP](group),
            otf_library.DEFFUNCTIONGROUP: h[otf_library.DEFFUNCTIONGROUP](function_group),
            otf_library.DEFFUNCTION: h[otf_library.DEFFUNCTION](function),
            otf_library.DEFCOLLOP: h[otf_library.DEFCOLLOP](collective),
            otf_library.DEFCOUNTER: h[otf_library.DEFCOUNTER](counter),
        }


#: the event types an OTF trace gives, by their code in _Columns
_TYPES = ("ENTER", "LEAVE", "MPI_SEND", "MPI_RECV", "MPI_COLLECTIVE_BEGIN", "MPI_COLLECTIVE_END", "METRIC")
_TYPE_CODES = {name: code for code, name in enumerate(_TYPES)}
#: buffered events (all processes) at which they are written out, bounding memory
FLUSH_EVENTS = 1_000_000


class _Columns:
    """One process's buffered event rows, column by column in typed arrays (tens of bytes an
    event, where a row tuple takes hundreds); a missing value is stored as -1."""

    INTEGERS = ("region_id", "comm_id", "partner", "tag", "msg_bytes", "root", "bytes_sent", "bytes_received")

    def __init__(self, collective_ops: dict[str, int]):
        self.ops = collective_ops  # operation name -> code, shared by the processes
        self.time, self.type, self.coll_op = array("Q"), array("b"), array("h")
        self.integers = [array("q") for _ in self.INTEGERS]
        self.metric_id, self.value = array("q"), array("d")

    def __len__(self) -> int:
        return len(self.time)

    def last(self) -> tuple[int, str] | None:
        """(time, type) of the last row."""
        return (self.time[-1], _TYPES[self.type[-1]]) if self.time else None

    def put(self, t: int, kind: str, payload: dict, before_last: bool = False) -> None:
        """Append a row (``payload``: its columns by name, the others missing), or insert it
        before the last row."""
        op = payload.get("coll_op")
        values = [
            (self.time, t),
            (self.type, _TYPE_CODES[kind]),
            (self.coll_op, -1 if op is None else self.ops.setdefault(op, len(self.ops))),
            (self.metric_id, payload.get("metric_id", -1)),
            (self.value, payload.get("value", 0.0)),
            *(
                (column, -1 if (v := payload.get(name)) is None else v)
                for column, name in zip(self.integers, self.INTEGERS, strict=True)
            ),
        ]
        for column, value in values:
            if before_last:
                column.insert(len(column) - 1, value)
            else:
                column.append(value)

    def take(self, n: int, seq_from: int, location_id: int) -> dict[str, pa.Array]:
        """The first ``n`` rows as Arrow columns of the events table (plus ``value``), removed."""

        def ints(column, dtype=np.int64):
            values = np.frombuffer(column, dtype=dtype, count=n).copy()
            return pa.array(values, mask=values == -1)

        codes = np.frombuffer(self.coll_op, dtype=np.int16, count=n).copy()
        names = sorted(self.ops, key=self.ops.get)
        out = {
            "location_id": pa.array(np.full(n, location_id, dtype=np.int64)),
            "seq": pa.array(np.arange(seq_from, seq_from + n, dtype=np.int64)),
            "time": pa.array(np.frombuffer(self.time, dtype=np.uint64, count=n).copy()),
            "type": pa.DictionaryArray.from_arrays(
                pa.array(np.frombuffer(self.type, dtype=np.int8, count=n).astype(np.int16)), pa.array(_TYPES)
            ),
            "coll_op": pa.DictionaryArray.from_arrays(pa.array(codes, mask=codes < 0), pa.array(names, pa.string())),
            "metric_id": ints(self.metric_id),
            "value": pa.array(np.frombuffer(self.value, dtype=np.float64, count=n).copy()),
            **{name: ints(column) for name, column in zip(self.INTEGERS, self.integers, strict=True)},
        }
        for column in (self.time, self.type, self.coll_op, self.metric_id, self.value, *self.integers):
            del column[:n]
        return out


class _Events:
    """The events of every process in record order, buffered as columns (_Columns) and written
    to ``sink`` whenever FLUSH_EVENTS are buffered (a process's last row stays: a counter may
    still move before it)."""

    def __init__(self, master: Path, defs: _Definitions, comm_of, rank_in, sink):
        self.master = master  # what an error names
        self.defs = defs
        self.comm_of, self.rank_in = comm_of, rank_in
        self.sink = sink
        self.ops: dict[str, int] = {}
        self.rows: dict[int, _Columns] = {pid: _Columns(self.ops) for pid in defs.processes}
        self.written: dict[int, int] = {}  # process -> rows written
        self.buffered = 0
        self.times: list[tuple[int, int]] = []  # (first, last) time of each part written
        self.stacks: dict[int, list[int]] = {}
        self.pending_end: dict[int, tuple] = {}  # process -> END row of a single-record collective
        self.open_collectives: dict[tuple[int, int], dict] = {}  # (process, matching id) -> END payload
        self.counts: dict[tuple[int, str], int] = {}
        self.unmatched_leaves: dict[int, int] = {}
        self.file_operations: list[dict] = []  # rows of file_operations (few: one per I/O call)
        self.open_file_operations: dict[tuple[int, int], int] = {}  # (process, matching id) -> start
        self.unmatched_file_operations: dict[int, int] = {}

    def _columns(self, pid: int) -> _Columns:
        if pid not in self.rows:  # a process the definitions did not name
            self.rows[pid] = _Columns(self.ops)
        return self.rows[pid]

    def _row(self, pid: int, t: int, kind: str, before_last: bool = False, **payload) -> None:
        self._columns(pid).put(t, kind, payload, before_last)
        self.buffered += 1
        if self.buffered >= FLUSH_EVENTS:
            self.flush(keep_last=True)

    def flush(self, keep_last: bool = False) -> None:
        """Write the buffered rows as one part of ``events`` and ``metric_values``."""
        parts = []
        for pid in sorted(self.rows):
            columns = self.rows[pid]
            n = len(columns) - (1 if keep_last and len(columns) else 0)
            if n > 0:
                parts.append(columns.take(n, self.written.get(pid, 0), pid))
                self.written[pid] = self.written.get(pid, 0) + n
        self.buffered = sum(len(c) for c in self.rows.values())
        if not parts:
            return
        table = pa.concat_tables(pa.table(part) for part in parts).unify_dictionaries()
        self.times.append((pc.min(table["time"]).as_py(), pc.max(table["time"]).as_py()))
        if self.times[-1][1] >= 2**63:
            raise CosyError(
                self.master, f"corrupt event data: timestamp {self.times[-1][1]} outside the signed 64-bit range"
            )
        values = table.filter(pc.equal(table["type"], "METRIC")).select(
            ["location_id", "seq", "time", "metric_id", "value"]
        )
        values = values.append_column("member_index", pa.array(np.zeros(values.num_rows, np.int32)))
        events = table.drop_columns(["value"])
        for name in _EVENT_COLUMNS:
            if name not in events.column_names:  # payload OTF has none of
                events = events.append_column(name, pa.nulls(events.num_rows))
        self.sink.write("events", self._conform("events", events))
        self.sink.write("metric_values", self._conform("metric_values", values))

    def _conform(self, name: str, table: pa.Table) -> pa.Table:
        """``table`` as table ``name``; a value its column cannot hold (an id beyond 32 bits) is
        one line naming the column."""
        try:
            return conform(name, table)
        except (pa.ArrowInvalid, OverflowError):
            target = schema(name)
            for column in table.column_names:
                try:
                    table[column].cast(target.field(column).type)
                except (pa.ArrowInvalid, OverflowError) as error:
                    raise CosyError(self.master, f"corrupt event data: {column}: {error}") from None
            raise

    def _count(self, pid: int, record: str) -> None:
        self.counts[(pid, record)] = self.counts.get((pid, record), 0) + 1

    def _end_payload(self, op: int, group: int, root: int, sent: int, received: int) -> dict:
        """The MPI_COLLECTIVE_END columns of a collective record."""
        comm = self.comm_of(group)
        return dict(
            comm_id=comm,
            coll_op=self.defs.collectives.get(op, f"CODE_{op}").upper().removeprefix("MPI_"),
            root=self.rank_in(comm, root) if root else None,
            bytes_sent=sent,
            bytes_received=received,
        )

    def handlers(self) -> dict:
        h, lib = otf_library.HANDLERS, otf_library

        def enter(_u, t, fid, pid, _source, _kv):
            self._count(pid, "ENTER")
            self.stacks.setdefault(pid, []).append(fid)
            self._row(pid, t, "ENTER", region_id=fid)
            return 0

        def leave(_u, t, fid, pid, _source, _kv):
            self._count(pid, "LEAVE")
            end = self.pending_end.pop(pid, None)
            if end is not None:
                end_time, kind, payload = end
                self._row(pid, end_time, kind, **payload)
            stack = self.stacks.setdefault(pid, [])
            if not stack:
                self.unmatched_leaves[pid] = self.unmatched_leaves.get(pid, 0) + 1
                return 0
            entered = stack.pop()
            self._row(pid, t, "LEAVE", region_id=fid or entered)
            return 0

        def message(kind: str, record: str):
            def handle(_u, t, pid, partner, group, tag, length, _source, _kv):
                self._count(pid, record)
                comm = self.comm_of(group)
                self._row(pid, t, kind, comm_id=comm, partner=self.rank_in(comm, partner), tag=tag, msg_bytes=length)
                return 0

            return handle

        def collective(_u, t, pid, op, group, root, sent, received, duration, _source, _kv):
            self._count(pid, "COLLECTIVE_OPERATION")
            self._row(pid, t, "MPI_COLLECTIVE_BEGIN")
            end = self._end_payload(op, group, root, sent, received)
            self.pending_end[pid] = (t + duration, "MPI_COLLECTIVE_END", end)
            return 0

        def begin_collective(_u, t, pid, op, match, group, root, sent, received, _scl, _kv):
            self._count(pid, "BEGIN_COLLECTIVE_OPERATION")
            self._row(pid, t, "MPI_COLLECTIVE_BEGIN")
            self.open_collectives[(pid, match)] = self._end_payload(op, group, root, sent, received)
            return 0

        def end_collective(_u, t, pid, match, _kv):
            self._count(pid, "END_COLLECTIVE_OPERATION")
            end = self.open_collectives.pop((pid, match), None)
            if end is not None:
                self._row(pid, t, "MPI_COLLECTIVE_END", **end)
            return 0

        def counter(_u, t, pid, cid, value, _kv):
            """A METRIC event (its value in metric_values). VampirTrace writes a counter right
            after the Enter / Leave it belongs to; cosydb's model (and OTF2) has it right
            before: it moves before the region events of its time that precede it."""
            self._count(pid, "COUNTER")
            last = self._columns(pid).last()
            follows_its_event = last is not None and last[0] == t and last[1] in ("ENTER", "LEAVE")
            self._row(pid, t, "METRIC", before_last=follows_its_event, metric_id=cid, value=value)
            return 0

        def file_operation(_u, t, fid, pid, handle, op, nbytes, duration, _source, _kv):
            """A file operation from ``t`` (its start: VampirTrace writes the record's time as
            the call's start and its duration beside it) for ``duration`` ticks."""
            self._count(pid, "FILE_OPERATION")
            self._file_operation(pid, t, duration, fid, handle, op, nbytes)
            return 0

        def begin_file_operation(_u, t, pid, match, _scl, _kv):
            self._count(pid, "BEGIN_FILE_OPERATION")
            self.open_file_operations[(pid, match)] = t
            return 0

        def end_file_operation(_u, t, pid, fid, match, handle, op, nbytes, _scl, _kv):
            self._count(pid, "END_FILE_OPERATION")
            start = self.open_file_operations.pop((pid, match), None)
            if start is None:
                self.unmatched_file_operations[pid] = self.unmatched_file_operations.get(pid, 0) + 1
            else:
                self._file_operation(pid, start, t - start, fid, handle, op, nbytes)
            return 0

        return {
            lib.FILEOPERATION: h[lib.FILEOPERATION](file_operation),
            lib.BEGINFILEOP: h[lib.BEGINFILEOP](begin_file_operation),
            lib.ENDFILEOP: h[lib.ENDFILEOP](end_file_operation),
            lib.ENTER: h[lib.ENTER](enter),
            lib.LEAVE: h[lib.LEAVE](leave),
            lib.SEND: h[lib.SEND](message("MPI_SEND", "SEND")),
            lib.RECEIVE: h[lib.RECEIVE](message("MPI_RECV", "RECEIVE")),
            lib.COLLOP: h[lib.COLLOP](collective),
            lib.BEGINCOLLOP: h[lib.BEGINCOLLOP](begin_collective),
            lib.ENDCOLLOP: h[lib.ENDCOLLOP](end_collective),
            lib.COUNTER: h[lib.COUNTER](counter),
        }

    def _file_operation(self, pid: int, start: int, duration: int, fid: int, handle: int, op: int, nbytes: int):
        self.file_operations.append(
            dict(
                location_id=pid,
                time=start,
                duration=duration,
                file=self.defs.files.get(fid, f"file {fid}"),
                handle_id=handle,
                operation=_FILE_OPERATIONS.get(op & _FILEOP_BITS, "other"),
                failed=bool(op & _IOFLAG_IOFAILED),
                bytes=nbytes,
            )
        )

    def finish(self) -> None:
        """Write what is buffered, with the END of a single-record collective whose call was
        never left."""
        for pid, (t, kind, end) in self.pending_end.items():
            self._columns(pid).put(t, kind, end)
        self.pending_end.clear()
        self.flush()


def _read_pass(lib, stub: str, handlers: dict, events: bool) -> int:
    """One pass of the library over the trace with ``handlers``; the records read, or
    READ_ERROR."""
    manager = lib.OTF_FileManager_open(256)
    reader = lib.OTF_Reader_open(stub.encode(), manager)
    if not reader:
        lib.OTF_FileManager_close(manager)
        return otf_library.READ_ERROR
    array = lib.OTF_HandlerArray_open()
    try:
        for record, callback in handlers.items():
            lib.OTF_HandlerArray_setHandler(array, ctypes.cast(callback, ctypes.c_void_p), record)
        read = lib.OTF_Reader_readEvents if events else lib.OTF_Reader_readDefinitions
        return read(reader, array)
    finally:
        lib.OTF_HandlerArray_close(array)
        lib.OTF_Reader_close(reader)
        lib.OTF_FileManager_close(manager)


def _few(items: list, shown: int = 10) -> str:
    more = f" and {len(items) - shown} more" if len(items) > shown else ""
    return ", ".join(map(str, items[:shown])) + more


def _unlisted_streams(lib, stub: str, processes) -> tuple[list[int], list[str]]:
    """The ``processes`` the master file maps to no event stream, and the event files of streams
    it does not list (both: a truncated master file; the first alone: processes without events)."""
    manager = lib.OTF_FileManager_open(4)
    control = lib.OTF_MasterControl_new(manager)
    try:
        if not control or not lib.OTF_MasterControl_read(control, stub.encode()):
            return sorted(processes), []
        streams = {pid: lib.OTF_MasterControl_mapReverse(control, pid) for pid in sorted(processes)}
    finally:
        if control:
            lib.OTF_MasterControl_close(control)
        lib.OTF_FileManager_close(manager)
    stem = Path(stub)
    files = [p.name for p in stem.parent.glob(f"{glob.escape(stem.name)}.*.events")]
    listed = {f"{stem.name}.{stream:x}.events" for stream in streams.values()}
    return [pid for pid, stream in streams.items() if not stream], sorted(set(files) - listed)


def _load(master: Path, stub: str, sink, encoding: str) -> LoadResult:
    lib = otf_library.library()
    started = time.perf_counter()
    defs = _Definitions(encoding)
    if _read_pass(lib, stub, defs.handlers(), events=False) == otf_library.READ_ERROR:
        raise CosyError(master, "the OTF library cannot read its definitions (NAME.0.def)")
    if not defs.processes:
        raise CosyError(master, "the trace defines no processes")
    missing, unlisted = _unlisted_streams(lib, stub, defs.processes)
    if missing and unlisted:  # their events would be silently absent: an analysis of part of the run
        raise CosyError(
            master,
            f"the master file maps no event stream to process(es) {_few(missing)} and does not list "
            f"{_few(unlisted)} (truncated master file?)",
        )
    phase_seconds = {"definitions": time.perf_counter() - started}
    started = time.perf_counter()

    tables = _definition_tables(defs)
    world = tables["communicators"][-1]["comm_id"]
    members = {}
    for row in tables["communicator_members"]:
        members.setdefault(row["comm_id"], {})[row["location_id"]] = row["comm_rank"]

    def comm_of(group: int) -> int:
        return group if group in defs.groups else world

    def rank_in(comm: int, pid: int) -> int | None:
        return members.get(comm, {}).get(pid)

    events = _Events(master, defs, comm_of, rank_in, sink)
    if _read_pass(lib, stub, events.handlers(), events=True) == otf_library.READ_ERROR:
        raise CosyError(master, "the OTF library cannot read its event streams (NAME.<stream>.events)")
    events.finish()

    for location in tables["locations"]:
        location["number_of_events"] = events.written.get(location["location_id"], 0)
    tables["file_operations"] = events.file_operations
    tables["record_counts"] = [
        dict(location_id=pid, type=record, count=count, has_payload=record in _STORED)
        for (pid, record), count in sorted(events.counts.items())
    ]
    for name, rows in tables.items():
        try:
            sink.write(name, conform(name, rows))
        except (pa.ArrowInvalid, OverflowError) as error:  # e.g. a function id beyond 32 bits
            raise CosyError(master, f"corrupt definitions: {name}: {error}") from None
    for pid, _ in events.open_file_operations:  # begun, never ended
        events.unmatched_file_operations[pid] = events.unmatched_file_operations.get(pid, 0) + 1
    dropped = [
        ("unbalanced_regions", events.unmatched_leaves, "Leave record with no region entered (dropped)"),
        (
            "unmatched_file_operations",
            events.unmatched_file_operations,
            "BeginFileOperation without its EndFileOperation, or the reverse (dropped)",
        ),
    ]
    warnings = [
        dict(check=check, location_id=pid, count=count, detail=detail)
        for check, counts, detail in dropped
        for pid, count in sorted(counts.items())
    ]
    total = sum(events.written.values())
    first = min((t for t, _ in events.times), default=None)
    last = max((t for _, t in events.times), default=None)
    phase_seconds["events"] = time.perf_counter() - started
    return LoadResult(
        source_path=str(master.resolve()),
        number_of_locations=len(defs.processes),
        loaded=f"{total:,} events",
        creator=defs.creator,
        number_of_events=total,
        timer_resolution=defs.resolution or 1,
        global_offset=first or 0,
        trace_length=(last - first) if total else None,
        first_time=first,
        last_time=last,
        warnings=warnings,
        phase_seconds=phase_seconds,
    )


def _definition_tables(defs: _Definitions) -> dict[str, list[dict]]:
    """locations, location_groups, regions and communicators (with their members) from the
    definition records; the last communicator is the world of all ranks."""
    ranks = sorted(pid for pid, (_, parent) in defs.processes.items() if parent == 0)
    rank_of = {pid: r for r, pid in enumerate(ranks)}
    locations, thread_counts = [], {}
    for pid in sorted(defs.processes):
        name, parent = defs.processes[pid]
        rank = rank_of.get(pid, rank_of.get(parent))
        thread = 0 if parent == 0 else thread_counts.setdefault(parent, 0) + 1
        if parent:
            thread_counts[parent] = thread
        group = rank if rank is not None else len(ranks) + pid
        locations.append(
            dict(
                location_id=pid,
                name=name,
                location_type="CPU_THREAD",
                location_group_id=group,
                rank=rank,
                thread=thread,
            )
        )
    location_groups = [
        dict(location_group_id=r, name=defs.processes[pid][0], group_type="PROCESS", rank=r)
        for pid, r in rank_of.items()
    ]
    regions = []
    for fid, (name, gid) in sorted(defs.functions.items()):
        group = defs.function_groups.get(gid, "")
        is_mpi = name.startswith("MPI_") or group.upper() == "MPI"
        is_io = not is_mpi and _IO_GROUP.fullmatch(group) is not None
        role = _MPI_ROLES.get(name.removeprefix("MPI_"), "FUNCTION") if is_mpi else "FILE_IO" if is_io else "FUNCTION"
        paradigm = "MPI" if is_mpi else "IO" if is_io else "OPENMP" if group.upper().startswith("OMP") else "USER"
        regions.append(dict(region_id=fid, name=name, canonical_name=name, role=role, paradigm=paradigm))
    communicators, comm_members = [], []
    world = max([*defs.groups, 0]) + 1
    for gid, (name, procs) in [*sorted(defs.groups.items()), (world, ("MPI_COMM_WORLD (all ranks)", ranks))]:
        communicators.append(dict(comm_id=gid, name=name, paradigm="MPI", size=len(procs), is_self=len(procs) == 1))
        comm_members += [dict(comm_id=gid, comm_rank=i, location_id=pid) for i, pid in enumerate(procs)]
    metrics = [
        dict(
            metric_id=cid,
            metric_kind="class",
            member_index=0,
            member_id=cid,
            name=name,
            metric_type="PAPI" if name.startswith("PAPI_") else "OTHER",
            metric_mode=_COUNTER_MODES.get(properties & 0b1111, "ABSOLUTE_POINT"),
            value_type="UINT64",
            unit=unit,
            occurrence="SYNCHRONOUS",
        )
        for cid, (name, properties, unit) in sorted(defs.counters.items())
    ]
    return dict(
        locations=locations,
        location_groups=location_groups,
        regions=regions,
        communicators=communicators,
        communicator_members=comm_members,
        metrics=metrics,
    )


#: OTF2's metric mode of an OTF counter: its type (OTF_COUNTER_TYPE_ACC 0 / _ABS 1) and scope
#: (OTF_COUNTER_SCOPE_START 0 / _POINT 4 / _LAST 8 / _NEXT 12), the low four property bits
_COUNTER_MODES = {
    0: "ACCUMULATED_START",
    4: "ACCUMULATED_POINT",
    8: "ACCUMULATED_LAST",
    12: "ACCUMULATED_NEXT",
    1 | 4: "ABSOLUTE_POINT",
    1 | 8: "ABSOLUTE_LAST",
    1 | 12: "ABSOLUTE_NEXT",
}
