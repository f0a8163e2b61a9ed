{#---
like: mpi_latesender_timeline  # a timeline pattern (catalog.TIMELINE_COLUMNS)
info: Each wait in a collective, MPI_Init or MPI_Finalize as an interval of the timeline (cosydb export).
description: |
  The metrics of mpi_collective_wait_matches on the timeline: a call waits from its Enter
  for its idle time; a completion time (mpi_*_completion) is the end of the call. One row
  per (metric, instance, rank): property (the metric), location_id, start_s (seconds since
  the global offset), idle_s, callpath_id, note (none).
diagnosis: Not a problem by itself; see the metric of each row.
---#}
select
    w.metric as property,
    w.location_id,
    case when w.metric like '%\_completion' escape '\' then i.leave_s - w.idle_s else i.enter_s end as start_s,
    w.idle_s,
    w.callpath_id,
    null::varchar as note
from {{ ref('mpi_collective_wait_matches') }} as w
join {{ ref('collective_instances') }} as ci
    on
        w.comm_id = ci.comm_id
        and w.instance_index = ci.instance_index
        and w.location_id = ci.location_id
join {{ ref('region_instances') }} as i
    on ci.location_id = i.location_id and ci.call_enter_seq = i.enter_seq
