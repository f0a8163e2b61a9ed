{#---
kind: pattern
parent: null
unit: s
requires: [trace, openmp]
columns: {callpath_id: BIGINT, location_id: BIGINT, kind: VARCHAR, idle_s: DOUBLE}
info: Time the CPUs reserved for a process's OpenMP threads stay unused.
description: |
  Scalasca, omp_idle_threads / omp_limited_parallelism (Time assumes every thread of a
  process holds its CPU for the whole run). kind 'serial': while the master thread
  (thread 0) runs outside parallel regions, every other thread of its process idles;
  each gets the master's time at those call paths (its exclusive time, the fork and
  join intervals moved to the parallel region as in omp_fork_join). kind 'limited': a
  parallel region forked with fewer threads than the process has leaves the others
  idle from fork to join, at the parallel region's call path. One row per (call path,
  idle thread, kind): callpath_id, location_id, kind, idle_s (seconds).
diagnosis: Not a problem by itself; see omp_idle_threads.
---#}
with clock as (
    select timer_resolution from {{ ref('experiments') }}
),

threads as (
    select location_id, location_group_id, thread
    from {{ ref('locations') }}
    where location_type = 'CPU_THREAD'
),

master_time as (
    select * from {{ ref('omp_serial_time') }}
),

serial as (
    select t.callpath_id, w.location_id, 'serial' as kind, t.time_s as idle_s
    from master_time as t
    join threads as m on t.location_id = m.location_id
    join threads as w on m.location_group_id = w.location_group_id and w.thread > 0
),

forking as (
    select p.*, i.callpath_id, t.location_group_id
    from {{ ref('parallel_instances') }} as p
    join {{ ref('region_instances') }} as i using (location_id, enter_seq)
    join threads as t using (location_id)
    where p.location_id = p.fork_location_id and p.team_size < p.process_threads
),

limited as (
    select f.callpath_id, t.location_id, 'limited' as kind,
        (f.join_time::bigint - f.fork_time::bigint) / clock.timer_resolution as idle_s
    from forking as f
    join threads as t on f.location_group_id = t.location_group_id
    cross join clock
    where not exists (
        select 1 from {{ ref('parallel_instances') }} as q
        where q.fork_location_id = f.fork_location_id and q.fork_seq = f.fork_seq and q.location_id = t.location_id
    )
)

select callpath_id, location_id, kind, sum(idle_s) as idle_s
from (select * from serial union all select * from limited) as u
group by all
