-- OpenMP model enhancement: barrier instances matched across the team. The k-th
-- barrier (explicit or implicit, region_classes.omp_class) a thread enters within
-- its parallel-region instance (parallel_instances) is its part of the team's k-th
-- barrier instance; barriers outside parallel regions are not matched. One row per
-- (barrier instance, thread): location_id, enter_seq, callpath_id, omp_class
-- ('ebarrier' or 'ibarrier'), fork_location_id, fork_seq (the team), barrier_index
-- (k), enter_time, leave_time, latest_enter_time (the team's last Enter, ticks).
with barriers as (
    select i.experiment_id, i.location_id, i.enter_seq, i.callpath_id, i.enter_time, i.leave_time, k.omp_class
    from {{ ref('region_instances') }} as i
    join {{ ref('region_classes') }} as k using (experiment_id, region_id)
    where k.omp_class in ('ebarrier', 'ibarrier')
),

in_team as (
    select b.*, p.fork_location_id, p.fork_seq
    from barriers as b
    asof join {{ ref('parallel_instances') }} as p
        on b.experiment_id = p.experiment_id
        and b.location_id = p.location_id
        and b.enter_time >= p.enter_time
    where b.enter_time <= p.leave_time
),

numbered as (
    select
        *,
        row_number() over (partition by experiment_id, location_id, fork_location_id, fork_seq order by enter_seq)
            as barrier_index
    from in_team
)

select
    *,
    max(enter_time) over (partition by experiment_id, fork_location_id, fork_seq, barrier_index) as latest_enter_time
from numbered
