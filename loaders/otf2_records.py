"""Which OTF2 event records cosydb stores, and in which columns of the ``events`` table.

Every record the OTF2 library can deliver gets a row in ``events``. Records
listed in ``RECORDS`` also fill payload columns; the others (RMA, I/O,
calling-context sampling, ...) are stored with type, time and location only
and are listed as "stored without payload" by ``cosydb info``. Records the
library itself does not know arrive through OTF2's *Unknown* callback and are
stored as type ``UNKNOWN``.
"""

from __future__ import annotations

import re

import pyarrow as pa

# Payload columns of the events table: name -> (Arrow type, array typecode,
# value that means "undefined" in OTF2 and becomes NULL, enum dictionary name).
COLUMNS: dict[str, tuple] = {
    "region_id": (pa.int32(), "I", None, None),
    "comm_id": (pa.int32(), "I", None, None),
    "partner": (pa.int32(), "I", 0xFFFFFFFF, None),
    "tag": (pa.int64(), "I", None, None),
    "msg_bytes": (pa.int64(), "Q", None, None),
    "request_id": (pa.int64(), "Q", None, None),
    "coll_op": (pa.string(), "B", None, "CollectiveOp"),
    "root": (pa.int32(), "I", 0xFFFFFFFF, None),
    "bytes_sent": (pa.int64(), "Q", None, None),
    "bytes_received": (pa.int64(), "Q", None, None),
    "paradigm": (pa.string(), "B", None, "Paradigm"),
    "thread_count": (pa.int32(), "I", 0xFFFFFFFF, None),
    "lock_id": (pa.int64(), "Q", None, None),
    "acquisition_order": (pa.int64(), "Q", None, None),
    "task_id": (pa.int64(), "Q", None, None),
    "creating_thread": (pa.int32(), "I", None, None),
    "generation_number": (pa.int32(), "I", None, None),
    "sequence_count": (pa.int64(), "Q", None, None),
    "parameter_id": (pa.int32(), "I", None, None),
    "parameter_value": (pa.int64(), "q", None, None),
    "string_id": (pa.int32(), "I", None, None),
    "exit_status": (pa.int64(), "q", None, None),
    "measurement_mode": (pa.string(), "B", None, "MeasurementMode"),
    "metric_id": (pa.int32(), "I", None, None),
}

# OTF2 record name -> (columns filled by the callback arguments that follow the
# attribute list, in order; None skips an argument).
RECORDS: dict[str, tuple] = {
    "Enter": ("region_id",),
    "Leave": ("region_id",),
    "MpiSend": ("partner", "comm_id", "tag", "msg_bytes"),
    "MpiIsend": ("partner", "comm_id", "tag", "msg_bytes", "request_id"),
    "MpiIsendComplete": ("request_id",),
    "MpiIrecvRequest": ("request_id",),
    "MpiRecv": ("partner", "comm_id", "tag", "msg_bytes"),
    "MpiIrecv": ("partner", "comm_id", "tag", "msg_bytes", "request_id"),
    "MpiRequestTest": ("request_id",),
    "MpiRequestCancelled": ("request_id",),
    "MpiCollectiveBegin": (),
    "MpiCollectiveEnd": ("coll_op", "comm_id", "root", "bytes_sent", "bytes_received"),
    "OmpFork": ("thread_count",),
    "OmpJoin": (),
    "OmpAcquireLock": ("lock_id", "acquisition_order"),
    "OmpReleaseLock": ("lock_id", "acquisition_order"),
    "OmpTaskCreate": ("task_id",),
    "OmpTaskSwitch": ("task_id",),
    "OmpTaskComplete": ("task_id",),
    "ThreadFork": ("paradigm", "thread_count"),
    "ThreadJoin": ("paradigm",),
    "ThreadTeamBegin": ("comm_id",),
    "ThreadTeamEnd": ("comm_id",),
    "ThreadAcquireLock": ("paradigm", "lock_id", "acquisition_order"),
    "ThreadReleaseLock": ("paradigm", "lock_id", "acquisition_order"),
    "ThreadTaskCreate": ("comm_id", "creating_thread", "generation_number"),
    "ThreadTaskSwitch": ("comm_id", "creating_thread", "generation_number"),
    "ThreadTaskComplete": ("comm_id", "creating_thread", "generation_number"),
    "ThreadCreate": ("comm_id", "sequence_count"),
    "ThreadBegin": ("comm_id", "sequence_count"),
    "ThreadWait": ("comm_id", "sequence_count"),
    "ThreadEnd": ("comm_id", "sequence_count"),
    "ParameterString": ("parameter_id", "string_id"),
    "ParameterInt": ("parameter_id", "parameter_value"),
    "ParameterUnsignedInt": ("parameter_id", "parameter_value"),
    "ProgramBegin": ("string_id", None, None),  # program name; arguments not stored
    "ProgramEnd": ("exit_status",),
    "MeasurementOnOff": ("measurement_mode",),
    "BufferFlush": (None,),  # the flush's end time is the matching Leave-like stop
    "Metric": ("metric_id",),  # values go to the metric_values table
}


def type_name(record: str) -> str:
    """OTF2 record name -> event type in the table, e.g. ``MpiIsendComplete`` -> ``MPI_ISEND_COMPLETE``."""
    return re.sub(r"(?<=[a-z0-9])(?=[A-Z])", "_", record).upper()
