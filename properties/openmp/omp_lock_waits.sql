{#---
kind: pattern
parent: null
unit: s
requires: [trace]
info: OpenMP lock acquisitions (critical sections and lock API) with the time lost to the previous holder.
description: |
  Scalasca, omp_lock_contention_critical / _api: the acquisitions of one lock are
  numbered (ThreadAcquireLock's acquisitionOrder); acquisition n waits for the release
  of acquisition n - 1 (ThreadReleaseLock) when that release comes after the thread
  entered the call acquiring the lock (the critical construct or omp_set_lock):
  wait_s = max(0, min(release(n - 1), acquire(n)) - E(call)). One row per acquisition:
  callpath_id (of the call), location_id, time (of the acquisition, ticks), lock_id,
  acquisition_order, omp_class of the call ('critical' or 'lock_api'), wait_s (seconds).
diagnosis: Not a problem by itself; see omp_lock_contention_critical and omp_lock_contention_api.
---#}
with clock as (
    select timer_resolution from {{ ref('experiments') }}
),

threads as (
    select location_id, location_group_id from {{ ref('locations') }}
),

lock_events as (
    select e.location_id, e.seq, e.time, e.type, e.lock_id, e.acquisition_order, t.location_group_id
    from {{ ref('events') }} as e
    join threads as t using (location_id)
    where e.type in ('THREAD_ACQUIRE_LOCK', 'THREAD_RELEASE_LOCK', 'OMP_ACQUIRE_LOCK', 'OMP_RELEASE_LOCK')
),

acquisitions as (
    select a.*, c.call_callpath_id as callpath_id, c.call_enter_time, k.omp_class
    from lock_events as a
    join {{ ref('event_calls') }} as c using (location_id, seq)
    join {{ ref('region_classes') }} as k on k.region_id = c.call_region_id
    where a.type like '%ACQUIRE_LOCK'
),

releases as (
    select location_group_id, lock_id, acquisition_order, time as release_time
    from lock_events
    where type like '%RELEASE_LOCK'
)

select
    a.callpath_id,
    a.location_id,
    a.time,
    a.lock_id,
    a.acquisition_order,
    a.omp_class,
    greatest(0, least(r.release_time, a.time)::bigint - a.call_enter_time::bigint) / clock.timer_resolution as wait_s
from acquisitions as a
join releases as r
    on r.location_group_id = a.location_group_id
    and r.lock_id = a.lock_id
    and r.acquisition_order = a.acquisition_order - 1
cross join clock
