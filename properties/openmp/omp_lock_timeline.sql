{#---
like: mpi_latesender_timeline  # a timeline pattern (catalog.TIMELINE_COLUMNS)
requires: [trace, openmp]
info: Each wait for a lock or critical section as an interval of the timeline (cosydb export).
description: |
  omp_lock_contention_critical and omp_lock_contention_api on the timeline: a thread waits
  for a lock until it acquires it. One row per wait of omp_lock_waits: property,
  location_id, start_s (seconds since the global offset), idle_s, callpath_id, note (none).
diagnosis: Not a problem by itself; see omp_lock_contention_critical and omp_lock_contention_api.
---#}
select
    case w.omp_class
        when 'critical' then 'omp_lock_contention_critical' else 'omp_lock_contention_api'
    end as property,
    w.location_id,
    ticks_to_s(w.time, x.global_offset, x.timer_resolution) - w.wait_s as start_s,
    w.wait_s as idle_s,
    w.callpath_id,
    null::varchar as note
from {{ ref('omp_lock_waits') }} as w
cross join {{ ref('experiments') }} as x
