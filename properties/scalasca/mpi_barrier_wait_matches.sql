{#---
kind: pattern
parent: null
unit: s
requires: [trace]
info: Scalasca Wait at Barrier instances - a rank in MPI_Barrier waiting for the last one to arrive.
description: |
  reference/wait-states.md, mpi_barrier_wait: for one MPI_Barrier instance (the k-th
  collective on a communicator, collective_instances) with latest = max B over its
  ranks, each rank waits idle = min(latest, X) - B when positive (B/X: the
  MpiCollectiveBegin/End events). Barriers on one-rank communicators are ignored.
  One row per (instance, location) that waited: callpath_id / location_id of the
  barrier call, comm_id, instance_index, idle_s.
diagnosis: See mpi_barrier_wait.
---#}
with barriers as (
    select
        *,
        max(begin_time) over (partition by comm_id, instance_index) as latest_begin_time
    from {{ ref('collective_instances') }}
    where coll_op = 'BARRIER' and comm_size > 1
)

select
    b.call_callpath_id as callpath_id,
    b.location_id,
    b.comm_id,
    b.instance_index,
    (least(b.latest_begin_time, b.end_time)::bigint - b.begin_time::bigint) / x.timer_resolution as idle_s
from barriers as b
cross join {{ ref('experiments') }} as x
where least(b.latest_begin_time, b.end_time) > b.begin_time
