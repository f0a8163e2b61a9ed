"""Read the events of some locations of an OTF2 archive into a Parquet file.

One call of :func:`read_locations` runs in one worker process. It reads its
locations one after the other with OTF2's per-location event readers (which
apply the archive's clock offsets and mapping tables, like every OTF2
reader), through ctypes callbacks that only append the raw fields to typed
arrays. Each segment of at most ``chunk_events`` events of one location is
then turned into one Arrow record batch with numpy scatters and streamed to
the Parquet writer, so memory stays bounded whatever the trace size.
"""

from __future__ import annotations

import ctypes
import sys
from array import array

import numpy as np
import otf2
import pyarrow as pa
import pyarrow.parquet as pq
import _otf2
from _otf2.Config import conf

from .otf2_records import COLUMNS, RECORDS, type_name

_FP_PREFIX = "_EvtReaderCallback_FP_"
_FP_MODULE = sys.modules["_otf2.EvtReaderCallbacks"]
_PLAIN = (ctypes.c_uint8, ctypes.c_int8, ctypes.c_uint16, ctypes.c_int16, ctypes.c_uint32,
          ctypes.c_int32, ctypes.c_uint64, ctypes.c_int64, ctypes.c_int, ctypes.c_double)

#: Every record type the OTF2 library can deliver, plus its Unknown callback.
ALL_RECORDS = sorted(n[len(_FP_PREFIX):] for n in dir(_FP_MODULE) if n.startswith(_FP_PREFIX))
#: Event type names in a fixed order: the dictionary of the ``type`` column.
EVENT_TYPES = [type_name(r) for r in ALL_RECORDS]
_TYPE_CODE = {r: i for i, r in enumerate(ALL_RECORDS)}

EVENT_SCHEMA = pa.schema(
    [("location_id", pa.int64()), ("seq", pa.int64()), ("time", pa.uint64()),
     ("type", pa.dictionary(pa.int16(), pa.string()))]
    + [(name, pa.dictionary(pa.int16(), pa.string()) if spec[3] else spec[0])
       for name, spec in COLUMNS.items()]
)
METRIC_SCHEMA = pa.schema([
    ("location_id", pa.int64()), ("seq", pa.int64()), ("time", pa.uint64()),
    ("metric_id", pa.int32()), ("member_index", pa.int32()), ("value", pa.float64()),
])

_ENUM_NAMES = {
    enum: pa.array([getattr(otf2, enum)._names.get(i, f"CODE_{i}") for i in range(256)])
    for enum in {spec[3] for spec in COLUMNS.values() if spec[3]}
}
_TYPE_DICTIONARY = pa.array(EVENT_TYPES)
_OTF2_TYPE = {name: code for code, name in otf2.Type._names.items()}


_ERROR_CALLBACK = ctypes.CFUNCTYPE(ctypes.c_int, ctypes.c_void_p, ctypes.c_char_p, ctypes.c_uint64,
                                   ctypes.c_char_p, ctypes.c_int, ctypes.c_char_p, ctypes.c_void_p)


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


class LocationError(Exception):
    """Reading the events of one location failed."""

    def __init__(self, location_id: int, error: Exception):
        self.location_id = location_id
        super().__init__(" ".join(str(error).split()))


class _Buffer:
    """Raw fields of one record type, appended by its callback."""

    def __init__(self, record: str, columns: tuple):
        self.code = _TYPE_CODE[record]
        self.time = array("Q")
        self.seq = array("Q")
        self.columns = {c: array(COLUMNS[c][1]) for c in columns if c is not None}
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
        for a in (self.value_seq, self.value_time, self.value_metric, self.value_index,
                  self.value_type, self.value_bits):
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
        bits = np.frombuffer(self.value_bits, dtype=np.uint64)
        kinds = np.frombuffer(self.value_type, dtype=np.uint8)
        value = bits.astype(np.float64)  # UINT64 counters
        signed = kinds == _OTF2_TYPE["INT64"]
        value[signed] = bits[signed].view(np.int64)
        double = kinds == _OTF2_TYPE["DOUBLE"]
        value[double] = bits[double].view(np.float64)
        n = len(bits)
        return pa.RecordBatch.from_arrays([
            pa.array(np.full(n, location_id, dtype=np.int64)),
            pa.array(np.frombuffer(self.value_seq, dtype=np.uint64).astype(np.int64)),
            pa.array(np.frombuffer(self.value_time, dtype=np.uint64)),
            pa.array(np.frombuffer(self.value_metric, dtype=np.uint32).astype(np.int32)),
            pa.array(np.frombuffer(self.value_index, dtype=np.uint32).astype(np.int32)),
            pa.array(value),
        ], schema=METRIC_SCHEMA)


class _RecordSink:
    """Callbacks for every record type, and the assembly of their buffers into batches."""

    def __init__(self):
        self.buffers: list[_Buffer] = []
        self._keep = []  # ctypes function pointers must outlive the reader
        self.metric = _MetricBuffer()
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
            c_type = ctypes.CFUNCTYPE(ctypes.c_int, *argtypes)
            pointer = c_type(function)
            self._keep.append(pointer)
            setter = getattr(conf.lib, f"OTF2_EvtReaderCallbacks_Set{record}Callback")
            setter.argtypes = [ctypes.c_void_p, c_type]
            setter.restype = ctypes.c_int
            if setter(ctypes.cast(self.handle, ctypes.c_void_p), pointer) != 0:
                raise RuntimeError(f"cannot register OTF2 callback for {record}")

    def close(self):
        _otf2.EvtReaderCallbacks_Delete(self.handle)

    def pending(self) -> int:
        return sum(len(b) for b in self.buffers)

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
        arrays = [pa.array(np.full(n, location_id, dtype=np.int64)), pa.array(seq), pa.array(time),
                  pa.DictionaryArray.from_arrays(pa.array(code), _TYPE_DICTIONARY)]
        for name, (arrow_type, typecode, undefined, enum) in COLUMNS.items():
            arrays.append(self._column(filled, index, n, name, arrow_type, typecode, undefined, enum))
        return pa.RecordBatch.from_arrays(arrays, schema=EVENT_SCHEMA)

    @staticmethod
    def _column(filled, index, n, name, arrow_type, typecode, undefined, enum):
        sources = [b for b in filled if name in b.columns]
        if not sources:
            if enum:
                return pa.DictionaryArray.from_arrays(pa.nulls(n, pa.int16()), _ENUM_NAMES[enum])
            return pa.nulls(n, arrow_type)
        dtype = np.dtype(typecode)
        values = np.zeros(n, dtype=dtype)
        valid = np.zeros(n, dtype=bool)
        for b in sources:
            i = index[id(b)]
            values[i] = np.frombuffer(b.columns[name], dtype=dtype)
            valid[i] = True
        if undefined is not None:
            valid &= values != undefined
        if enum:
            return pa.DictionaryArray.from_arrays(
                pa.array(values.astype(np.int16), mask=~valid), _ENUM_NAMES[enum])
        return pa.array(values, mask=~valid).cast(arrow_type)

    def clear(self):
        for b in self.buffers:
            b.clear()


def read_locations(anchor: str, location_ids: list[int], events_path: str, metrics_path: str,
                   chunk_events: int = 1 << 20) -> dict:
    """Read the events of ``location_ids`` into ``events_path`` (and metric values into ``metrics_path``).

    Returns per-location statistics: events read, the number the definitions
    announce, record-type counts, first/last timestamp and how often the
    timestamp went backwards.
    """
    stats = {}
    reader = otf2.reader.Reader(anchor)
    handle = reader.handle
    sink = _RecordSink()
    events_writer = pq.ParquetWriter(events_path, EVENT_SCHEMA, compression="zstd")
    metrics_writer = None
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
            if def_files:
                def_reader = _otf2.Reader_GetDefReader(handle, location_id)
                if def_reader:  # clock offsets and mapping tables, applied by the event reader
                    _otf2.Reader_ReadAllLocalDefinitions(handle, def_reader)
                    _otf2.Reader_CloseDefReader(handle, def_reader)
            evt_reader = _otf2.Reader_GetEvtReader(handle, location_id)
            _otf2.Reader_RegisterEvtCallbacks(handle, evt_reader, sink.handle, None)
            s = stats[location_id] = dict(read=0, expected=expected[location_id], types={},
                                          first_time=None, last_time=None, time_decreases=0)
            while True:
                try:
                    got = _otf2.Reader_ReadLocalEvents(handle, evt_reader, chunk_events)
                except _otf2.Error as error:
                    raise LocationError(location_id, error) from None
                if got == 0:
                    break
                for t, c in sink.type_counts().items():
                    s["types"][t] = s["types"].get(t, 0) + c
                batch = sink.event_batch(location_id)
                times = batch.column(2).to_numpy()
                if s["last_time"] is not None and times[0] < s["last_time"]:
                    s["time_decreases"] += 1
                s["time_decreases"] += int(np.count_nonzero(np.diff(times.astype(np.int64)) < 0))
                if s["first_time"] is None:
                    s["first_time"] = int(times[0])
                s["last_time"] = int(times[-1])
                s["read"] += batch.num_rows
                events_writer.write_batch(batch, row_group_size=chunk_events)
                if len(sink.metric.value_seq):
                    if metrics_writer is None:
                        metrics_writer = pq.ParquetWriter(metrics_path, METRIC_SCHEMA, compression="zstd")
                    metrics_writer.write_batch(sink.metric.value_batch(location_id))
                sink.clear()
                if got < chunk_events:
                    break
            _otf2.Reader_CloseEvtReader(handle, evt_reader)
        if def_files:
            _otf2.Reader_CloseDefFiles(handle)
    finally:
        events_writer.close()
        if metrics_writer is not None:
            metrics_writer.close()
        sink.close()
        reader.close()
    return stats
