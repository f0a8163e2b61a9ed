{#---
kind: pattern
parent: null
unit: s
requires: [trace, openmp]
columns: {callpath_id: BIGINT, location_id: BIGINT, time: UBIGINT, lock_id: BIGINT,
  acquisition_order: BIGINT, omp_class: VARCHAR, wait_s: DOUBLE}
info: OpenMP lock acquisitions (critical sections and lock API) with the time lost to the previous holder.
description: |
  Scalasca, omp_lock_contention_critical / _api: the acquisitions of one lock are
  numbered (lock_acquisitions); acquisition n waits for the release of acquisition n - 1
  when that release comes after the thread entered the call acquiring the lock (the
  critical construct or omp_set_lock): wait_s = max(0, min(release(n - 1), acquire(n)) - E(call)). One row per acquisition:
  callpath_id (of the call), location_id, time (of the acquisition, ticks), lock_id,
  acquisition_order, omp_class of the call ('critical' or 'lock_api'), wait_s (seconds).
diagnosis: Not a problem by itself; see omp_lock_contention_critical and omp_lock_contention_api.
---#}
with clock as (
    select timer_resolution from {{ ref('experiments') }}
)

select
    a.call_callpath_id as callpath_id,
    a.location_id,
    a.acquire_time as time,
    a.lock_id,
    a.acquisition_order,
    k.omp_class,
    greatest(0, least(a.previous_release_time, a.acquire_time)::bigint - a.call_enter_time::bigint)
        / clock.timer_resolution as wait_s
from {{ ref('lock_acquisitions') }} as a
join {{ ref('region_classes') }} as k on a.call_region_id = k.region_id
cross join clock
where a.previous_release_time is not null
