-- OpenMP model enhancement: every lock acquisition (ThreadAcquireLock, or the older
-- OmpAcquireLock) with its release by the same thread and the release of the
-- previous holder. Acquisitions of one lock are numbered per process by
-- acquisition_order. Columns: location_id, location_group_id, lock_id,
-- acquisition_order, acquire_seq, acquire_time, release_seq, release_time (the
-- holder's release, ticks), previous_release_time (of acquisition_order - 1; NULL
-- for the first), and the call that acquired it (call_enter_seq, call_region_id,
-- call_callpath_id, call_enter_time: the critical construct or omp_set_lock).
with lock_events as (
    select e.experiment_id, e.location_id, e.seq, e.time, e.type, e.lock_id, e.acquisition_order,
        l.location_group_id
    from {{ ref('events') }} as e
    join {{ ref('locations') }} as l using (experiment_id, location_id)
    where e.type in ('THREAD_ACQUIRE_LOCK', 'THREAD_RELEASE_LOCK', 'OMP_ACQUIRE_LOCK', 'OMP_RELEASE_LOCK')
),

releases as (
    select experiment_id, location_group_id, lock_id, acquisition_order, location_id, seq, time
    from lock_events
    where type like '%RELEASE_LOCK'
)

select
    a.experiment_id,
    a.location_id,
    a.location_group_id,
    a.lock_id,
    a.acquisition_order,
    a.seq as acquire_seq,
    a.time as acquire_time,
    r.seq as release_seq,
    r.time as release_time,
    p.time as previous_release_time,
    c.call_enter_seq,
    c.call_region_id,
    c.call_callpath_id,
    c.call_enter_time
from lock_events as a
left join releases as r
    on a.experiment_id = r.experiment_id and a.location_group_id = r.location_group_id
    and a.lock_id = r.lock_id and a.acquisition_order = r.acquisition_order
left join releases as p
    on a.experiment_id = p.experiment_id and a.location_group_id = p.location_group_id
    and a.lock_id = p.lock_id and p.acquisition_order = a.acquisition_order - 1
left join {{ ref('event_calls') }} as c
    on a.experiment_id = c.experiment_id and a.location_id = c.location_id and a.seq = c.seq
where a.type like '%ACQUIRE_LOCK'
