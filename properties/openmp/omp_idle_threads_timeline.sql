{#---
like: mpi_latesender_timeline  # a timeline pattern (catalog.TIMELINE_COLUMNS)
requires: [trace, openmp]
info: Idle OpenMP threads as intervals of the timeline (cosydb export --format perfetto).
description: |
  omp_idle_threads and omp_limited_parallelism on the timeline (omp_idle_time: Time counts
  every thread of a process for the whole run). While a process's thread 0 runs outside
  parallel regions, each of its other threads is idle: a slice per interval of thread 0's
  own (exclusive) time at a call path outside parallel regions, its fork and join
  intervals left out (they are omp_management's), at that call path. A thread left out of
  a smaller team idles from the fork to the join (omp_limited_parallelism, drawn inside
  the omp_idle_threads slice of the same interval). Rows: property, location_id, start_s
  (seconds since the global offset), idle_s, callpath_id, note (why the thread idles).
diagnosis: Not a problem by itself; see omp_idle_threads.
---#}
with threads as (
    select location_id, location_group_id, thread from {{ ref('locations') }}
    where location_type = 'CPU_THREAD'
),

clock as (select global_offset, timer_resolution from {{ ref('experiments') }}),

-- thread 0's region events, each closing the interval since the one before it, which is
-- the own time of the call path active in it (an Enter: the caller's, a Leave: the callee's)
marks as (
    select i.location_id, i.enter_seq as seq, i.enter_s as time_s, c.parent_id as callpath_id
    from {{ ref('region_instances') }} as i
    join {{ ref('callpaths') }} as c using (callpath_id)
    where i.location_id in (select location_id from threads where thread = 0)
    union all
    select location_id, leave_seq, leave_s, callpath_id from {{ ref('region_instances') }}
    where leave_seq is not null and location_id in (select location_id from threads where thread = 0)
),

serial as (
    select
        location_id,
        lag(time_s) over (partition by location_id order by seq) as from_s,
        time_s as to_s,
        callpath_id
    from marks
    qualify
        callpath_id is not null
        and callpath_id not in (select p.callpath_id from {{ ref('parallel_callpaths') }} as p)
),

-- the teams thread 0 forks, from the fork to the join (or its Leave, if later)
teams as (
    select
        p.location_id,
        p.fork_location_id,
        p.fork_seq,
        p.team_size,
        p.process_threads,
        i.callpath_id,
        ticks_to_s(p.fork_time, clock.global_offset, clock.timer_resolution) as from_s,
        ticks_to_s(p.join_time, clock.global_offset, clock.timer_resolution) as join_s,
        greatest(i.leave_s, coalesce(join_s, i.leave_s)) as to_s
    from {{ ref('parallel_instances') }} as p
    join {{ ref('region_instances') }} as i using (location_id, enter_seq)
    cross join clock
    where p.location_id = p.fork_location_id
),

-- an interval that begins inside a team's fork..join begins at its end; one that ends
-- inside it ends at its start
from_cut as (
    select
        s.location_id,
        s.callpath_id,
        s.to_s,
        case when t.to_s > s.from_s then t.to_s else s.from_s end as from_s
    from serial as s
    asof left join teams as t on s.location_id = t.location_id and s.from_s >= t.from_s
),

cut as (
    select
        s.location_id,
        s.callpath_id,
        s.from_s,
        case when t.to_s >= s.to_s then t.from_s else s.to_s end as to_s
    from from_cut as s
    asof left join teams as t on s.location_id = t.location_id and s.to_s > t.from_s
)

select
    'omp_idle_threads' as property,
    w.location_id,
    s.from_s as start_s,
    s.to_s - s.from_s as idle_s,
    s.callpath_id,
    'thread 0 runs serially' as note
from cut as s
join threads as m using (location_id)
join threads as w on m.location_group_id = w.location_group_id and w.thread > 0
union all
select
    part.name as property,
    w.location_id,
    t.from_s as start_s,
    t.join_s - t.from_s as idle_s,
    t.callpath_id,
    'not in the team (' || t.team_size || ' of ' || t.process_threads || ' threads)' as note
from teams as t
join threads as m using (location_id)
join threads as w on m.location_group_id = w.location_group_id
cross join (values ('omp_idle_threads'), ('omp_limited_parallelism')) as part (name)
where t.team_size < t.process_threads and not exists (
    select 1 from {{ ref('parallel_instances') }} as q
    where q.fork_location_id = t.fork_location_id and q.fork_seq = t.fork_seq and q.location_id = w.location_id
)
