"""Read the events of some locations of an OTF2 archive into a Parquet file.

One call of :func:`read_locations` runs in one worker process. It reads its
locations one after the other with OTF2's per-location event readers (which
apply the archive's clock offsets and mapping tables, like every OTF2
reader), through callbacks that only store the raw fields: compiled ones
(:mod:`otf2_native`, the default) or the Python ones here (``_RecordSink``: the
reference, appending to typed arrays). Each segment of at most ``chunk_events``
events of one location is then turned into one Arrow record batch
(:func:`assemble_events`) and streamed to the Parquet writer, so memory stays
bounded whatever the trace size.
"""

from __future__ import annotations

import contextlib
import ctypes
import os
import sys
from array import array

import _otf2
import numpy as np
import otf2
import pyarrow as pa
import pyarrow.parquet as pq
from _otf2.Config import conf

from cosydb import tables
from cosydb.errors import CosyError

from .otf2_records import COLUMNS, RECORDS, type_name

_FP_PREFIX = "_EvtReaderCallback_FP_"
_FP_MODULE = sys.modules["_otf2.EvtReaderCallbacks"]
_PLAIN = (
    ctypes.c_uint8,
    ctypes.c_int8,
    ctypes.c_uint16,
    ctypes.c_int16,
    ctypes.c_uint32,
    ctypes.c_int32,
    ctypes.c_uint64,
    ctypes.c_int64,
    ctypes.c_int,
    ctypes.c_double,
)

#: Every record type the OTF2 library can deliver, plus its Unknown callback.
ALL_RECORDS = sorted(n[len(_FP_PREFIX) :] for n in dir(_FP_MODULE) if n.startswith(_FP_PREFIX))
#: Event type names in a fixed order: the dictionary of the ``type`` column.
EVENT_TYPES = [type_name(r) for r in ALL_RECORDS]
_TYPE_CODE = {r: i for i, r in enumerate(ALL_RECORDS)}

EVENT_SCHEMA = tables.schema("events")
METRIC_SCHEMA = tables.schema("metric_values")

_ENUM_NAMES = {
    enum: pa.array([getattr(otf2, enum)._names.get(i, f"CODE_{i}") for i in range(256)])
    for enum in {spec[2] for spec in COLUMNS.values() if spec[2]}
}
#: Which codes of each enum OTF2 knows (the others are stored as ``CODE_<n>`` with a warning).
_ENUM_KNOWN = {enum: np.array([i in getattr(otf2, enum)._names for i in range(256)]) for enum in _ENUM_NAMES}
_TYPE_DICTIONARY = pa.array(EVENT_TYPES)
#: Parquet dictionaries only for the dictionary columns (type and the enums): the ids and
#: ticks, sorted per location and mostly NULL in the payload columns, write a third faster
#: and smaller without one (bench/bench_load.py).
_DICTIONARY_COLUMNS = [f.name for f in EVENT_SCHEMA if pa.types.is_dictionary(f.type)]
_OTF2_TYPE = {name: code for code, name in otf2.Type._names.items()}


_ERROR_CALLBACK = ctypes.CFUNCTYPE(
    ctypes.c_int,
    ctypes.c_void_p,
    ctypes.c_char_p,
    ctypes.c_uint64,
    ctypes.c_char_p,
    ctypes.c_int,
    ctypes.c_char_p,
    ctypes.c_void_p,
)


@_ERROR_CALLBACK
def _quiet(user, file, line, function, code, message, args):
    """OTF2 would print its own error lines to stderr; cosydb reports one line of its own."""
    return code


conf.lib.OTF2_Error_RegisterCallback.argtypes = [_ERROR_CALLBACK, ctypes.c_void_p]
conf.lib.OTF2_Error_RegisterCallback.restype = ctypes.c_void_p
conf.lib.OTF2_Error_RegisterCallback(_quiet, None)


def _plain(ctype):
    """Enum wrapper types -> their plain ctypes base, so callbacks receive ints."""
    for base in getattr(ctype, "__mro__", ()):
        if base in _PLAIN:
            return base
    return ctypes.c_void_p


#: The largest timestamp the catalog holds (its time columns are signed 64-bit integers).
INT64_MAX = (1 << 63) - 1


class LocationError(Exception):
    """Reading one location failed; ``file`` is ``"evt"`` (its events) or ``"def"`` (its
    local definitions: mapping tables and clock offsets)."""

    def __init__(self, location_id: int, error: Exception | str, file: str = "evt"):
        self.location_id = location_id
        self.file = file
        super().__init__(" ".join(str(error).split()))


class _CallbackErrors:
    """Stands in for ``sys.stderr`` while OTF2 runs Python callbacks.

    The ``otf2`` package catches an exception raised in one of its callbacks (a string
    that is not UTF-8, a reference to an undefined definition, ...), writes its traceback
    to ``sys.stderr`` and stops reading with ``INTERRUPTED_BY_CALLBACK``; ctypes reports an
    exception escaping a raw callback through ``sys.unraisablehook``. Both are kept here
    instead of printed, so that cosydb can report the problem as one line.
    """

    def __init__(self):
        self.caught: list[BaseException] = []

    def _keep(self, error):
        if error is not None and (not self.caught or self.caught[-1] is not error):
            self.caught.append(error)

    def write(self, text):
        self._keep(sys.exc_info()[1])
        return len(text)

    def flush(self):
        pass

    def unraisable(self, unraisable):
        self._keep(unraisable.exc_value)


@contextlib.contextmanager
def callback_errors():
    """Collect (instead of printing) the exceptions raised in OTF2 callbacks; yields their list.
    An interrupt caught in a callback (the ``otf2`` package catches everything) is raised again."""
    sink = _CallbackErrors()
    hook, sys.unraisablehook = sys.unraisablehook, sink.unraisable
    try:
        with contextlib.redirect_stderr(sink):
            yield sink.caught
    finally:
        sys.unraisablehook = hook
        for error in sink.caught:
            if not isinstance(error, Exception):  # KeyboardInterrupt, SystemExit
                raise error.with_traceback(None)


def describe_error(error: BaseException) -> str:
    """One line for an exception raised while OTF2 decoded a record."""
    if isinstance(error, UnicodeDecodeError):
        return f"a string is not valid UTF-8 (byte 0x{error.object[error.start]:02x} at offset {error.start})"
    if isinstance(error, KeyError):
        tb = error.__traceback__
        while tb is not None:  # the otf2 registry looking up a reference: DefinitionRegistry._get
            names = tb.tb_frame.f_locals
            if tb.tb_frame.f_code.co_name == "_get" and "def_type" in names and "ref" in names:
                kind = getattr(names["def_type"], "__name__", "definition")
                return f"a definition refers to an undefined {kind} {names['ref']}"
            tb = tb.tb_next
        return f"unknown value {error.args[0] if error.args else ''}".strip()
    text = " ".join(str(error).split()).removeprefix("Semantic error in the input trace: ")
    text = text if len(text) <= 160 else text[:157] + "..."
    known = (_otf2.Error, ValueError, otf2.error.TraceReaderError)
    return text if text and isinstance(error, known) else f"{type(error).__name__}: {text}".rstrip(": ")


class _Buffer:
    """Raw fields of one record type, appended by its callback."""

    def __init__(self, record: str, columns: tuple):
        self.code = _TYPE_CODE[record]
        self.time = array("Q")
        self.seq = array("Q")
        self.columns = {c: array(COLUMNS[c][0]) for c in columns if c is not None}
        self.argument_columns = columns

    def __len__(self):
        return len(self.seq)

    def clear(self):
        for a in (self.time, self.seq, *self.columns.values()):
            del a[:]


def _make_callback(buffer: _Buffer, n_args: int):
    """A callback that appends time, position and the stored arguments to ``buffer``."""
    names = ["loc", "time", "pos", "user", "attrs"] + [f"a{i}" for i in range(n_args)]
    env = {"T": buffer.time.append, "P": buffer.seq.append}
    body = ["T(time)", "P(pos)"]
    for i, column in enumerate(buffer.argument_columns[:n_args]):
        if column is not None:
            env[f"C{i}"] = buffer.columns[column].append
            body.append(f"C{i}(a{i})")
    source = f"def callback({', '.join(names)}):\n    " + "\n    ".join(body + ["return 0"])
    exec(source, env)  # noqa: S102 - generated from the static tables above
    return env["callback"]


class _MetricBuffer(_Buffer):
    """Metric records: one event row each, plus one value row per metric member."""

    def __init__(self):
        super().__init__("Metric", ("metric_id",))
        self.value_seq = array("Q")
        self.value_time = array("Q")
        self.value_metric = array("I")
        self.value_index = array("I")
        self.value_type = array("B")
        self.value_bits = array("Q")

    def clear(self):
        super().clear()
        for a in (
            self.value_seq,
            self.value_time,
            self.value_metric,
            self.value_index,
            self.value_type,
            self.value_bits,
        ):
            del a[:]

    def callback(self, loc, time, pos, user, attrs, metric, n, types, values):
        self.time.append(time)
        self.seq.append(pos)
        self.columns["metric_id"].append(metric)
        self.value_seq.extend([pos] * n)
        self.value_time.extend([time] * n)
        self.value_metric.extend([metric] * n)
        self.value_index.extend(range(n))
        self.value_type.frombytes(ctypes.string_at(types, n))
        self.value_bits.frombytes(ctypes.string_at(values, 8 * n))
        return 0

    def value_batch(self, location_id: int) -> pa.RecordBatch:
        return metric_value_batch(
            location_id,
            np.frombuffer(self.value_seq, dtype=np.uint64),
            np.frombuffer(self.value_time, dtype=np.uint64),
            np.frombuffer(self.value_metric, dtype=np.uint32),
            np.frombuffer(self.value_index, dtype=np.uint32),
            np.frombuffer(self.value_type, dtype=np.uint8),
            np.frombuffer(self.value_bits, dtype=np.uint64),
        )


def metric_value_batch(location_id: int, seq, time, metric, index, kinds, bits) -> pa.RecordBatch:
    """The ``metric_values`` rows of one location segment from the raw member arrays (OTF2
    type code and the value's 64 bits per member)."""
    value = bits.astype(np.float64)  # UINT64 counters
    signed = kinds == _OTF2_TYPE["INT64"]
    value[signed] = bits[signed].view(np.int64)
    double = kinds == _OTF2_TYPE["DOUBLE"]
    value[double] = bits[double].view(np.float64)
    n = len(bits)
    return pa.RecordBatch.from_arrays(
        [
            pa.array(np.full(n, location_id, dtype=np.int64)),
            pa.array(seq.astype(np.int64)),
            pa.array(time.astype(np.uint64)),
            pa.array(metric.astype(np.int32)),
            pa.array(index.astype(np.int32)),
            pa.array(value),
        ],
        schema=METRIC_SCHEMA,
    )


class ValueOutOfRange(ValueError):
    """An event field that does not fit its column (a region id >= 2**31, ...)."""

    def __init__(self, column: str, value: int, seq: int):
        self.column, self.value, self.seq = column, value, seq
        super().__init__(f"event {seq}: {column} {value} is out of range")


_SETTER = ctypes.CFUNCTYPE(ctypes.c_int, ctypes.c_void_p, ctypes.c_void_p)


def set_callback(callbacks, record: str, function) -> None:
    """Make ``function`` (a C function pointer) the callback of OTF2 record ``record`` in
    the event reader callbacks ``callbacks``."""
    setter = _SETTER((f"OTF2_EvtReaderCallbacks_Set{record}Callback", conf.lib))
    if setter(ctypes.cast(callbacks, ctypes.c_void_p), ctypes.cast(function, ctypes.c_void_p)) != 0:
        raise RuntimeError(f"cannot register OTF2 callback for {record}")


class _RecordSink:
    """Callbacks for every record type, and the assembly of their buffers into batches."""

    def __init__(self):
        self.buffers: list[_Buffer] = []
        self._keep = []  # ctypes function pointers must outlive the reader
        self.metric = _MetricBuffer()
        #: (column, event position, value, count) of enum values OTF2 does not know, per batch
        self.unknown_enums: list[tuple[str, int, int, int]] = []
        self.handle = _otf2.EvtReaderCallbacks_New()
        for record in ALL_RECORDS:
            fp_type = getattr(_FP_MODULE, _FP_PREFIX + record)
            argtypes = [_plain(t) for t in fp_type._argtypes_]
            if record == "Metric":
                buffer, function = self.metric, self.metric.callback
            else:
                buffer = _Buffer(record, RECORDS.get(record, ()))
                function = _make_callback(buffer, len(argtypes) - 5)
            self.buffers.append(buffer)
            pointer = ctypes.CFUNCTYPE(ctypes.c_int, *argtypes)(function)
            self._keep.append(pointer)
            set_callback(self.handle, record, pointer)

    def register(self, handle, evt_reader) -> None:
        """Make ``evt_reader`` (of reader ``handle``) call this sink's callbacks."""
        _otf2.Reader_RegisterEvtCallbacks(handle, evt_reader, self.handle, None)

    def close(self):
        _otf2.EvtReaderCallbacks_Delete(self.handle)

    def metric_values(self) -> int:
        return len(self.metric.value_seq)

    def value_batch(self, location_id: int) -> pa.RecordBatch:
        return self.metric.value_batch(location_id)

    def type_counts(self) -> dict[str, int]:
        return {EVENT_TYPES[b.code]: len(b) for b in self.buffers if len(b)}

    def event_batch(self, location_id: int) -> pa.RecordBatch:
        """Assemble the buffered events of one location segment, ordered by position."""
        filled = [b for b in self.buffers if len(b)]
        n = sum(len(b) for b in filled)
        seqs = {id(b): np.frombuffer(b.seq, dtype=np.uint64).astype(np.int64) for b in filled}
        first = min(int(s[0]) for s in seqs.values())
        index = {k: s - first for k, s in seqs.items()}
        seq = np.empty(n, dtype=np.int64)
        time = np.empty(n, dtype=np.uint64)
        code = np.empty(n, dtype=np.int16)
        covered = np.zeros(n, dtype=bool)
        for b in filled:
            i = index[id(b)]
            if i.max() >= n:
                raise ValueError("event positions of a location are not contiguous")
            seq[i] = seqs[id(b)]
            time[i] = np.frombuffer(b.time, dtype=np.uint64)
            code[i] = b.code
            covered[i] = True
        if not covered.all():
            raise ValueError("event positions of a location are not contiguous")
        columns = {}
        for name, (typecode, _undefined, _enum) in COLUMNS.items():
            sources = [b for b in filled if name in b.columns]
            if sources:
                values = np.zeros(n, dtype=np.dtype(typecode))
                valid = np.zeros(n, dtype=bool)
                for b in sources:
                    i = index[id(b)]
                    values[i] = np.frombuffer(b.columns[name], dtype=values.dtype)
                    valid[i] = True
                columns[name] = values, valid
        batch, self.unknown_enums = assemble_events(location_id, seq, time, code, columns)
        return batch

    def clear(self):
        for b in self.buffers:
            b.clear()


def assemble_events(location_id: int, seq, time, code, columns: dict) -> tuple[pa.RecordBatch, list]:
    """The ``events`` rows of one location segment: positions (int64), times, record type
    codes (``ALL_RECORDS`` index) and per payload column ``(values, valid)`` where a record
    of the segment fills it (OTF2's undefined value becomes NULL). Returns the batch and
    the enum values OTF2 does not know as (column, position, value, count); a value too
    wide for its column raises :class:`ValueOutOfRange`."""
    n = len(seq)
    arrays = [
        pa.array(np.full(n, location_id, dtype=np.int64)),
        pa.array(seq),
        pa.array(time),
        pa.DictionaryArray.from_arrays(pa.array(code), _TYPE_DICTIONARY),
    ]
    unknown = []
    for name, (_typecode, undefined, enum) in COLUMNS.items():
        arrow_type = EVENT_SCHEMA.field(name).type
        if name not in columns:
            if enum:
                arrays.append(pa.DictionaryArray.from_arrays(pa.nulls(n, pa.int16()), _ENUM_NAMES[enum]))
            else:
                arrays.append(pa.nulls(n, arrow_type))
            continue
        values, valid = columns[name]
        if undefined is not None:
            valid = valid & (values != undefined)
        if not enum and np.iinfo(values.dtype).max > np.iinfo(arrow_type.to_pandas_dtype()).max:
            wide = valid & (values > np.iinfo(arrow_type.to_pandas_dtype()).max)
            if wide.any():  # e.g. a region id >= 2**31 or a message size >= 2**63
                row = int(np.argmax(wide))
                raise ValueOutOfRange(name, int(values[row]), int(seq[row]))
        if enum:
            strange = valid & ~_ENUM_KNOWN[enum][values]
            if strange.any():  # (column, first row, its value, how many rows)
                first = int(np.argmax(strange))
                unknown.append((name, int(seq[first]), int(values[first]), int(np.count_nonzero(strange))))
            indices = pa.array(values.astype(np.int16), mask=~valid)
            arrays.append(pa.DictionaryArray.from_arrays(indices, _ENUM_NAMES[enum]))
        else:
            # numpy's conversion, exact for every valid value (unsigned, and none too wide: checked
            # above); Arrow's cast would import pyarrow.compute (43 ms of a small load's process)
            arrays.append(pa.array(values.astype(arrow_type.to_pandas_dtype(), copy=False), mask=~valid))
    return pa.RecordBatch.from_arrays(arrays, schema=EVENT_SCHEMA), unknown


#: Mapping tables whose global ids land in an int32 column of the events table.
_MAPPED_COLUMNS = {
    "REGION": "region_id",
    "COMM": "comm_id",
    "STRING": "string_id",
    "PARAMETER": "parameter_id",
    "METRIC": "metric_id",
}


def _clock_offset(local, time, offset, stddev):
    """Local definitions callback: keep the location's clock offsets to check them."""
    local["offsets"].append((time, offset))


def _mapping_table(local, map_type, id_map):
    """Local definitions callback: note global ids a mapping table maps to that no int32
    column can hold, to blame the ``.def`` file for events that carry them."""
    column = _MAPPED_COLUMNS.get(_otf2.MappingType._names.get(getattr(map_type, "value", map_type)))
    if column is not None:
        wide = local["wide"].setdefault(column, set())

        def visit(local_id, global_id, user):
            if global_id > 0x7FFFFFFF:  # the event reader keeps the low 32 bits of a 64-bit id
                wide.add(global_id & 0xFFFFFFFF)

        _otf2.IdMap_Traverse(id_map, visit, local)


def _local_definitions(handle, location_id: int, callbacks, errors: list) -> dict:
    """Read a location's local definitions (mapping tables and clock offsets, which the event
    reader applies); a damaged file or a clock offset that moves timestamps outside the
    signed 64-bit range is a :class:`LocationError` naming the ``.def`` file. Returns the
    clock offsets (``offsets``) and the out-of-range global ids of its mapping tables per
    events column (``wide``)."""
    local = dict(offsets=[], wide={})
    try:
        def_reader = _otf2.Reader_GetDefReader(handle, location_id)
        if def_reader:
            _otf2.Reader_RegisterDefCallbacks(handle, def_reader, callbacks, local)
            _otf2.Reader_ReadAllLocalDefinitions(handle, def_reader)
            _otf2.Reader_CloseDefReader(handle, def_reader)
    except _otf2.Error as error:
        why = describe_error(errors[-1]) if errors else " ".join(str(error).split())
        raise LocationError(location_id, f"corrupt or truncated local definitions ({why})", "def") from None
    if errors:
        raise LocationError(location_id, f"corrupt local definitions ({describe_error(errors[-1])})", "def")
    for time, offset in local["offsets"]:
        if not 0 <= time + offset <= INT64_MAX:
            raise LocationError(
                location_id,
                f"corrupt clock offset: {offset} ticks at time {time} move timestamps outside the signed 64-bit range",
                "def",
            )
    return local


def _raw_times_fit(anchor: str, location_id: int) -> bool:
    """Whether the location's event timestamps, without its clock offsets, fit a signed
    64-bit integer (asked when they do not once the offsets are applied)."""
    reader = otf2.reader.Reader(anchor)
    handle = reader.handle
    sink = _RecordSink()
    try:
        _otf2.Reader_SelectLocation(handle, location_id)
        _otf2.Reader_OpenEvtFiles(handle)
        evt_reader = _otf2.Reader_GetEvtReader(handle, location_id)  # no local definitions read
        _otf2.EvtReader_ApplyClockOffsets(evt_reader, False)
        sink.register(handle, evt_reader)
        while True:
            got = _otf2.Reader_ReadLocalEvents(handle, evt_reader, 1 << 16)
            if any(b.time and max(b.time) > INT64_MAX for b in sink.buffers):
                return False
            sink.clear()
            if got < 1 << 16:
                return True
    except _otf2.Error:
        return False
    finally:
        sink.close()
        reader.close()


@contextlib.contextmanager
def _writing(path: str):
    """A write of ``path`` that fails (a full disk, ...) is one user error naming the file."""
    try:
        yield
    except OSError as error:
        reason = os.strerror(error.errno) if error.errno else " ".join(str(error).split())
        raise CosyError(path, f"cannot be written: {reason}") from None


def read_locations(
    anchor: str, location_ids: list[int], events_path: str, metrics_path: str, chunk_events: int = 1 << 18
) -> dict:
    """Read the events of ``location_ids`` into ``events_path`` (and metric values into ``metrics_path``).

    Returns per-location statistics: events read, the number the definitions
    announce, record-type counts, first/last timestamp, how often the
    timestamp went backwards and the enum values OTF2 does not know. A damaged
    event or local definition file raises :class:`LocationError`.
    """
    stats = {}
    with callback_errors():  # the definitions were read once already; read again, they are fine
        reader = otf2.reader.Reader(anchor)
    handle = reader.handle
    from .otf2_native import NativeSink, decoder

    sink = NativeSink(chunk_events) if decoder() == "native" else _RecordSink()
    def_callbacks = _otf2.DefReaderCallbacks_New()
    _otf2.DefReaderCallbacks_SetClockOffsetCallback(def_callbacks, _clock_offset)
    _otf2.DefReaderCallbacks_SetMappingTableCallback(def_callbacks, _mapping_table)
    events_writer = pq.ParquetWriter(events_path, EVENT_SCHEMA, compression="zstd", use_dictionary=_DICTIONARY_COLUMNS)
    metrics_writer = None
    quiet = contextlib.ExitStack()
    errors = quiet.enter_context(callback_errors())
    try:
        expected = {loc._ref: loc.number_of_events for loc in reader.definitions.locations}
        for location_id in location_ids:
            _otf2.Reader_SelectLocation(handle, location_id)
        try:
            _otf2.Reader_OpenDefFiles(handle)
            def_files = True
        except _otf2.Error:
            def_files = False  # archives without local definitions are valid
        _otf2.Reader_OpenEvtFiles(handle)
        for location_id in location_ids:
            local = _local_definitions(handle, location_id, def_callbacks, errors) if def_files else {}
            try:
                evt_reader = _otf2.Reader_GetEvtReader(handle, location_id)
                sink.register(handle, evt_reader)
            except _otf2.Error as error:
                raise LocationError(location_id, f"corrupt or truncated event data ({error})") from None
            s = stats[location_id] = dict(
                read=0,
                expected=expected[location_id],
                types={},
                first_time=None,
                last_time=None,
                time_decreases=0,
                unknown_enums={},
            )
            while True:
                try:
                    got = _otf2.Reader_ReadLocalEvents(handle, evt_reader, chunk_events)
                except _otf2.Error as error:
                    raise LocationError(location_id, f"corrupt or truncated event data ({error})") from None
                if errors:
                    raise LocationError(location_id, f"corrupt event data ({describe_error(errors[0])})")
                if got == 0:
                    break
                for t, c in sink.type_counts().items():
                    s["types"][t] = s["types"].get(t, 0) + c
                try:
                    batch = sink.event_batch(location_id)
                except ValueOutOfRange as error:
                    if error.value in local.get("wide", {}).get(error.column, ()):  # from its mapping table
                        raise LocationError(
                            location_id,
                            f"corrupt mapping table: maps a local {error.column} "
                            f"to {error.value} (used by event {error.seq})",
                            "def",
                        ) from None
                    raise LocationError(location_id, f"corrupt event data ({error})") from None
                except ValueError as error:
                    raise LocationError(location_id, f"corrupt event data ({error})") from None
                times = batch.column(2).to_numpy()
                if times.max() > INT64_MAX:
                    i = int(np.argmax(times > INT64_MAX))
                    seq = batch.column(1)[i].as_py()
                    if local.get("offsets") and _raw_times_fit(anchor, location_id):
                        raise LocationError(
                            location_id,
                            f"corrupt clock offsets: they move event {seq} to time "
                            f"{times[i]}, outside the signed 64-bit range",
                            "def",
                        )
                    raise LocationError(
                        location_id,
                        f"corrupt event data: event {seq} has timestamp {times[i]}, outside the signed 64-bit range",
                    )
                for column, seq, value, count in sink.unknown_enums:
                    first = s["unknown_enums"].setdefault(column, dict(seq=seq, value=value, count=0))
                    first["count"] += count
                if s["last_time"] is not None and times[0] < s["last_time"]:
                    s["time_decreases"] += 1
                s["time_decreases"] += int(np.count_nonzero(np.diff(times.astype(np.int64)) < 0))
                if s["first_time"] is None:
                    s["first_time"] = int(times[0])
                s["last_time"] = int(times[-1])
                s["read"] += batch.num_rows
                with _writing(events_path):
                    events_writer.write_batch(batch, row_group_size=chunk_events)
                if sink.metric_values():
                    with _writing(metrics_path):
                        if metrics_writer is None:
                            metrics_writer = pq.ParquetWriter(metrics_path, METRIC_SCHEMA, compression="zstd")
                        metrics_writer.write_batch(sink.value_batch(location_id))
                sink.clear()
                if got < chunk_events:
                    break
            _otf2.Reader_CloseEvtReader(handle, evt_reader)
        if def_files:
            _otf2.Reader_CloseDefFiles(handle)
    finally:
        try:
            with _writing(events_path):
                events_writer.close()
            if metrics_writer is not None:
                with _writing(metrics_path):
                    metrics_writer.close()
        finally:
            sink.close()
            _otf2.DefReaderCallbacks_Delete(def_callbacks)
            reader.close()
            quiet.close()
    return stats
