"""The native OTF2 event sink: the OTF2 library calls compiled callbacks, not Python.

The callbacks (``_otf2_sink``, compiled from ``otf2_sink.c``, which
``otf2_sink_source.py`` generates) store every event of one read in row n of
numpy arrays this module owns: type code, position, time and one array per
payload column of ``events``. The OTF2 library still does the decoding, the clock
offset correction and the mapping of local to global ids, exactly as for the Python
callbacks of :class:`otf2_events._RecordSink`, which stay the reference and the
fallback: ``COSYDB_OTF2_DECODER=python`` selects them, and so does a build without
the compiled module.
"""

from __future__ import annotations

import ctypes
import importlib.util
import os

import _otf2
import numpy as np
import pyarrow as pa
from _otf2.Config import conf
from _otf2.ErrorCodes import ErrorCode, HandleErrorCode

from cosydb.errors import CosyError

from .otf2_events import ALL_RECORDS, EVENT_TYPES, assemble_events, metric_value_batch, set_callback
from .otf2_records import COLUMNS, RECORDS

_NAMES = list(COLUMNS)

#: For each payload column, which record types (by code) fill it.
_FILLED_BY = {name: np.array([name in RECORDS.get(record, ()) for record in ALL_RECORDS]) for name in COLUMNS}


class _Sink(ctypes.Structure):
    _fields_ = [
        ("capacity", ctypes.c_int64),
        ("n", ctypes.c_int64),
        ("code", ctypes.c_void_p),
        ("seq", ctypes.c_void_p),
        ("time", ctypes.c_void_p),
        ("columns", ctypes.c_void_p * len(COLUMNS)),
        ("m_capacity", ctypes.c_int64),
        ("m_n", ctypes.c_int64),
        ("m_seq", ctypes.c_void_p),
        ("m_time", ctypes.c_void_p),
        ("m_metric", ctypes.c_void_p),
        ("m_index", ctypes.c_void_p),
        ("m_type", ctypes.c_void_p),
        ("m_bits", ctypes.c_void_p),
    ]


def _library() -> ctypes.CDLL | None:
    spec = importlib.util.find_spec("cosydb.loaders._otf2_sink")
    return ctypes.CDLL(spec.origin) if spec is not None and spec.origin else None


_LIB = _library()
#: OTF2_Reader_RegisterEvtCallbacks with a plain pointer as its user data (the ``otf2``
#: package's wrapper passes a Python object); a failure raises ``_otf2.Error`` as there.
_REGISTER = ctypes.CFUNCTYPE(ErrorCode, ctypes.c_void_p, ctypes.c_void_p, ctypes.c_void_p, ctypes.c_void_p)(
    ("OTF2_Reader_RegisterEvtCallbacks", conf.lib)
)
_REGISTER.errcheck = HandleErrorCode


def decoder() -> str:
    """``native`` or ``python``: which event sink ``read_locations`` uses (COSYDB_OTF2_DECODER;
    default native where the compiled callbacks are built, else python)."""
    wanted = os.environ.get("COSYDB_OTF2_DECODER")
    if wanted is None:
        return "native" if _LIB is not None else "python"
    if wanted not in ("native", "python"):
        raise CosyError("COSYDB_OTF2_DECODER", f"'{wanted}' is neither native nor python")
    if wanted == "native" and _LIB is None:
        raise CosyError(
            "COSYDB_OTF2_DECODER", "native: the compiled callbacks (cosydb.loaders._otf2_sink) are not built"
        )
    return wanted


def _array(pointer: int, ctype, n: int) -> np.ndarray:
    return np.ctypeslib.as_array(ctypes.cast(pointer, ctypes.POINTER(ctype)), (n,)) if n else np.empty(0, ctype)


class NativeSink:
    """Buffers for the events of one read (at most ``capacity``), filled by the C callbacks;
    the same interface as ``otf2_events._RecordSink``."""

    def __init__(self, capacity: int):
        self.code = np.empty(capacity, dtype=np.int16)
        self.seq = np.empty(capacity, dtype=np.uint64)
        self.time = np.empty(capacity, dtype=np.uint64)
        self.columns = {name: np.empty(capacity, dtype=np.dtype(spec[0])) for name, spec in COLUMNS.items()}
        self.sink = _Sink(capacity=capacity, code=self.code.ctypes.data, seq=self.seq.ctypes.data)
        self.sink.time = self.time.ctypes.data
        for k, name in enumerate(_NAMES):
            self.sink.columns[k] = self.columns[name].ctypes.data
        self.unknown_enums: list[tuple[str, int, int, int]] = []
        self.handle = _otf2.EvtReaderCallbacks_New()
        for record in ALL_RECORDS:
            set_callback(self.handle, record, getattr(_LIB, f"cosydb_cb_{record}"))

    def register(self, handle, evt_reader) -> None:
        """Make ``evt_reader`` (of reader ``handle``) call this sink's callbacks."""
        _REGISTER(
            ctypes.cast(handle, ctypes.c_void_p),
            ctypes.cast(evt_reader, ctypes.c_void_p),
            ctypes.cast(self.handle, ctypes.c_void_p),
            ctypes.addressof(self.sink),
        )

    def close(self):
        _LIB.cosydb_sink_free(ctypes.byref(self.sink))
        _otf2.EvtReaderCallbacks_Delete(self.handle)

    def type_counts(self) -> dict[str, int]:
        counts = np.bincount(self.code[: self.sink.n], minlength=len(EVENT_TYPES))
        return {EVENT_TYPES[c]: int(counts[c]) for c in np.flatnonzero(counts)}

    def event_batch(self, location_id: int) -> pa.RecordBatch:
        """The events of the last read, in the order the library delivered them (by position)."""
        n = self.sink.n
        seq = self.seq[:n].astype(np.int64)
        if n and not np.array_equal(seq, np.arange(seq[0], seq[0] + n)):
            raise ValueError("event positions of a location are not contiguous")
        code = self.code[:n]
        columns = {}
        for name in _NAMES:
            valid = _FILLED_BY[name][code]
            if valid.any():
                columns[name] = np.where(valid, self.columns[name][:n], 0), valid
        batch, self.unknown_enums = assemble_events(location_id, seq, self.time[:n].copy(), code.copy(), columns)
        return batch

    def metric_values(self) -> int:
        return self.sink.m_n

    def value_batch(self, location_id: int) -> pa.RecordBatch:
        s, n = self.sink, self.sink.m_n
        return metric_value_batch(
            location_id,
            _array(s.m_seq, ctypes.c_uint64, n),
            _array(s.m_time, ctypes.c_uint64, n),
            _array(s.m_metric, ctypes.c_uint32, n),
            _array(s.m_index, ctypes.c_uint32, n),
            _array(s.m_type, ctypes.c_uint8, n),
            _array(s.m_bits, ctypes.c_uint64, n),
        )

    def clear(self):
        self.sink.n = 0
        self.sink.m_n = 0
