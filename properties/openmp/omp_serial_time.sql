{#---
kind: pattern
parent: null
unit: s
requires: [trace, openmp]
columns: {callpath_id: BIGINT, location_id: BIGINT, time_s: DOUBLE}
info: The master thread's time outside OpenMP parallel regions, per call path.
description: |
  Scalasca (omp_idle_threads) and ASL non_parallelized_code: the exclusive time of the
  master thread (thread 0) at every call path that is neither a parallel region nor
  below one, the fork and join intervals of its parallel regions moved out of the
  enclosing call path (omp_fork_join). One row per (call path, master location):
  callpath_id, location_id, time_s (seconds).
diagnosis: Not a problem by itself; see omp_idle_threads and openmp_non_parallelized_code.
---#}
with masters as (
    select location_id from {{ ref('locations') }} where location_type = 'CPU_THREAD' and thread = 0
)

select callpath_id, location_id, sum(time_s) as time_s
from (
    select callpath_id, location_id, excl_s as time_s from {{ ref('region_instances') }}
    union all
    select parent_callpath_id, location_id, -(fork_s + join_s)
    from {{ ref('omp_fork_join') }}
    where parent_callpath_id is not null
)
where location_id in (select location_id from masters)
    and callpath_id not in (select callpath_id from {{ ref('parallel_callpaths') }})
group by all
