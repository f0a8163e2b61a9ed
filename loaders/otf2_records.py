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

# How OTF2 delivers the payload columns of the events table (their Arrow types are in
# cosydb.tables): name -> (array typecode, value that means "undefined" in OTF2 and
# becomes NULL, enum dictionary name).
COLUMNS: dict[str, tuple] = {
    "region_id": ("I", None, None),
    "comm_id": ("I", None, None),
    "partner": ("I", 0xFFFFFFFF, None),
    "tag": ("I", None, None),
    "msg_bytes": ("Q", None, None),
    "request_id": ("Q", None, None),
    "coll_op": ("B", None, "CollectiveOp"),
    "root": ("I", 0xFFFFFFFF, None),
    "bytes_sent": ("Q", None, None),
    "bytes_received": ("Q", None, None),
    "paradigm": ("B", None, "Paradigm"),
    "thread_count": ("I", 0xFFFFFFFF, None),
    "lock_id": ("Q", None, None),
    "acquisition_order": ("Q", None, None),
    "task_id": ("Q", None, None),
    "creating_thread": ("I", None, None),
    "generation_number": ("I", None, None),
    "sequence_count": ("Q", None, None),
    "parameter_id": ("I", None, None),
    "parameter_value": ("q", None, None),
    "string_id": ("I", None, None),
    "exit_status": ("q", None, None),
    "measurement_mode": ("B", None, "MeasurementMode"),
    "metric_id": ("I", None, None),
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
