{#---
like: mpi_latesender_timeline  # a timeline pattern (catalog.TIMELINE_COLUMNS)
requires: [trace, openmp]
info: Each wait in an OpenMP barrier as an interval of the timeline (cosydb export --format perfetto).
description: |
  omp_ibarrier_wait and omp_ebarrier_wait on the timeline: a thread waits from its Enter of
  the barrier for the team's last thread. One row per wait of omp_barrier_waits: property,
  location_id, start_s (seconds since the global offset), idle_s, callpath_id, note (none).
diagnosis: Not a problem by itself; see omp_ibarrier_wait and omp_ebarrier_wait.
---#}
select
    'omp_' || w.omp_class || '_wait' as property,
    w.location_id,
    ticks_to_s(w.enter_time, x.global_offset, x.timer_resolution) as start_s,
    w.wait_s as idle_s,
    w.callpath_id,
    null::varchar as note
from {{ ref('omp_barrier_waits') }} as w
cross join {{ ref('experiments') }} as x
