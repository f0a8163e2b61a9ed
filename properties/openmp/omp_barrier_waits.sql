{#---
kind: pattern
parent: null
unit: s
requires: [trace]
info: OpenMP barrier instances matched across the team, with each thread's wait for the last one.
description: |
  Scalasca, omp_ebarrier_wait / omp_ibarrier_wait: the k-th barrier (explicit or
  implicit) a thread enters within its parallel-region instance is one barrier
  instance of the team (parallel_instances); a thread waits from its Enter until the
  latest Enter of the team, wait_s = max E - E (0 for the last one). Barriers outside a
  parallel region are not matched (Scalasca skips them too). One row per (barrier
  instance, thread): callpath_id, location_id, omp_class ('ebarrier' or 'ibarrier'),
  fork_location_id, fork_seq, barrier_index, enter_time (ticks), wait_s (seconds).
diagnosis: Not a problem by itself; see omp_ibarrier_wait and omp_ebarrier_wait.
---#}
with clock as (
    select timer_resolution from {{ ref('experiments') }}
),

barriers as (
    select i.location_id, i.enter_seq, i.callpath_id, i.enter_time, k.omp_class
    from {{ ref('region_instances') }} as i
    join {{ ref('region_classes') }} as k using (region_id)
    where k.omp_class in ('ebarrier', 'ibarrier')
),

in_team as (
    select b.*, p.fork_location_id, p.fork_seq
    from barriers as b
    asof join {{ ref('parallel_instances') }} as p
        on b.location_id = p.location_id and b.enter_time >= p.enter_time
    where b.enter_time <= p.leave_time
),

numbered as (
    select
        *,
        row_number() over (partition by location_id, fork_location_id, fork_seq order by enter_seq) as barrier_index
    from in_team
)

select
    callpath_id,
    location_id,
    omp_class,
    fork_location_id,
    fork_seq,
    barrier_index,
    enter_time,
    (max(enter_time) over team_barrier - enter_time)::bigint / clock.timer_resolution as wait_s
from numbered
cross join clock
window team_barrier as (partition by fork_location_id, fork_seq, barrier_index)
