{#---
kind: pattern
parent: null
unit: s
requires: [trace, openmp]
columns: {callpath_id: BIGINT, location_id: BIGINT, enter_seq: BIGINT, fork_location_id: BIGINT,
  fork_seq: BIGINT, parent_callpath_id: BIGINT, fork_s: DOUBLE, join_s: DOUBLE}
info: Fork and join time of every thread of every OpenMP parallel-region instance.
description: |
  Scalasca, omp_management / omp_fork: each team thread's parallel-region instance
  (parallel_instances) is charged the time from the fork to its Enter,
  fork_s = max(0, E(parallel) - fork), and from its Leave to the join,
  join_s = max(0, join - L(parallel)). Scalasca counts both intervals as the parallel
  region's time, so on the forking thread they leave the call path that encloses the
  fork (parent_callpath_id, NULL on the other threads). One row per (instance,
  thread): callpath_id, location_id, enter_seq (the thread's instance), fork_location_id,
  fork_seq (the team), parent_callpath_id, fork_s, join_s (seconds).
diagnosis: Not a problem by itself; see omp_management.
---#}
with clock as (
    select timer_resolution from {{ ref('experiments') }}
)

select
    i.callpath_id,
    p.location_id,
    p.enter_seq,
    p.fork_location_id,
    p.fork_seq,
    case when p.location_id = p.fork_location_id then caller.callpath_id end as parent_callpath_id,
    greatest(0, p.enter_time::bigint - p.fork_time::bigint) / clock.timer_resolution as fork_s,
    coalesce(greatest(0, p.join_time::bigint - p.leave_time::bigint), 0) / clock.timer_resolution as join_s
from {{ ref('parallel_instances') }} as p
join {{ ref('region_instances') }} as i using (location_id, enter_seq)
left join {{ ref('region_instances') }} as caller
    on p.fork_location_id = caller.location_id and p.parent_seq = caller.enter_seq
cross join clock
