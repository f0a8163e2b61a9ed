{#---
kind: pattern
parent: null
unit: s
columns: {experiment_id: INTEGER, callpath_id: BIGINT, region_id: INTEGER, location_id: BIGINT,
  executions: HUGEINT, incl_s: DOUBLE, excl_s: DOUBLE, comm_s: DOUBLE, sync_s: DOUBLE,
  io_s: DOUBLE, bytes_sent: DOUBLE, bytes_received: DOUBLE,
  messages_sent: HUGEINT, messages_received: HUGEINT}
info: The MPISummary rows of calls to MPI communication functions (ASL's CommSummaries).
description: |
  ASL §3.4.1.5: the summaries (mpi_summary: per process, and over all processes with
  location_id NULL) of the call paths whose called function is an MPI communication
  function (MPICommFunc: point-to-point and collectives; MPI_Barrier is MPISyncFunc).
diagnosis: Not a problem by itself; the communication properties build on it.
---#}
select s.*
from {{ ref('mpi_summary') }} as s
join {{ ref('region_classes') }} as c using (region_id)
where c.is_comm
