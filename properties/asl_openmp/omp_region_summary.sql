{#---
kind: pattern
parent: null
unit: s
requires: [trace, openmp]
columns: {callpath_id: BIGINT, kind: VARCHAR, location_id: BIGINT, instance_no: BIGINT,
  nr_executions: BIGINT, nr_threads: BIGINT, duration: DOUBLE, non_parallelized_code: DOUBLE,
  region_ctrl: DOUBLE, region_wait: DOUBLE, cross_thread_dep_wait: DOUBLE,
  cross_thread_dep_ctrl: DOUBLE}
info: The ASL OpenMP region summaries (SmRegionSummary) measured by an OpenMP trace.
description: |
  ASL §2.3.3 from the trace (only for traces with OpenMP parallel regions): for every
  parallel-region call path (kind PRegion) and each thread's instance of it
  (parallel_instances): duration = its time from fork to join (Enter to Leave plus
  omp_fork_join); region_wait = its waits at implicit barriers (the entry and exit
  barriers, omp_barrier_waits); region_ctrl = fork and join plus implicit-barrier time
  not spent waiting; cross_thread_dep_wait = its waits at explicit barriers and for locks
  (omp_lock_waits); cross_thread_dep_ctrl = its time in explicit barriers, critical
  sections, lock calls and ordered constructs not spent waiting; non_parallelized_code =
  its time in single and master constructs. Instance rows (instance_no: the fork's order)
  give the team's means (duration and region_ctrl: the master's) and nr_threads; thread
  rows (location_id) sum a thread's instances; the region row (nr_executions = the
  master's instances) sums the instance rows. For every call path the master runs outside
  parallel regions (kind Function): nr_executions, duration (inclusive time) and
  non_parallelized_code = the master's serial time in its subtree (omp_serial_time).
  Not measured by a trace: nr_remote_accesses, scheduling, additional_calc,
  nr_cache_misses (NULL). Columns as sm_summary_input.
diagnosis: Not a problem by itself; the openmp_* properties read it (pattern sm_summary).
---#}
with team_threads as (
    select f.*, i.incl_s, i.enter_time, i.leave_time, f.location_id = f.fork_location_id as is_master
    from {{ ref('omp_fork_join') }} as f
    join {{ ref('region_instances') }} as i using (location_id, enter_seq)
),

-- synchronisation constructs and their waits, each in its thread's parallel-region instance
sync_time as (
    select s.omp_class, s.excl_s as time_s, 0.0 as wait_s, t.location_id, t.enter_seq
    from (
        select i.location_id, i.enter_time, i.excl_s, k.omp_class
        from {{ ref('region_instances') }} as i
        join {{ ref('region_classes') }} as k using (region_id)
        where k.omp_class in ('ibarrier', 'ebarrier', 'critical', 'lock_api', 'ordered', 'serial')
    ) as s
    asof join team_threads as t on s.location_id = t.location_id and s.enter_time >= t.enter_time
    where s.enter_time <= t.leave_time
),

barrier_waits as (
    select w.omp_class, 0.0 as time_s, w.wait_s, t.location_id, t.enter_seq
    from {{ ref('omp_barrier_waits') }} as w
    join team_threads as t using (location_id, fork_location_id, fork_seq)
),

lock_waits as (
    select 'lock' as omp_class, 0.0 as time_s, l.wait_s, t.location_id, t.enter_seq
    from {{ ref('omp_lock_waits') }} as l
    asof join team_threads as t on l.location_id = t.location_id and l.time >= t.enter_time
    where l.time <= t.leave_time
),

per_thread_instance as (
    select
        any_value(t.callpath_id) as callpath_id,
        t.location_id,
        any_value(t.fork_location_id) as fork_location_id,
        any_value(t.fork_seq) as fork_seq,
        any_value(t.is_master) as is_master,
        any_value(t.incl_s + t.fork_s + t.join_s) as duration,
        coalesce(sum(x.wait_s) filter (where x.omp_class = 'ibarrier'), 0) as region_wait,
        any_value(t.fork_s + t.join_s)
            + coalesce(sum(x.time_s - x.wait_s) filter (where x.omp_class = 'ibarrier'), 0) as region_ctrl,
        coalesce(sum(x.wait_s) filter (where x.omp_class in ('ebarrier', 'lock')), 0) as cross_thread_dep_wait,
        coalesce(
            sum(x.time_s - x.wait_s) filter (
                where x.omp_class in ('ebarrier', 'critical', 'lock_api', 'ordered', 'lock')
            ),
            0
        )
            as cross_thread_dep_ctrl,
        coalesce(sum(x.time_s) filter (where x.omp_class = 'serial'), 0) as non_parallelized_code
    from team_threads as t
    left join (
        select * from sync_time
        union all
        select * from barrier_waits
        union all
        select * from lock_waits
    ) as x using (location_id, enter_seq)
    group by t.location_id, t.enter_seq
),

instances as (
    select
        callpath_id,
        fork_location_id,
        fork_seq,
        count(*) as nr_threads,
        max(duration) filter (where is_master) as duration,
        max(region_ctrl) filter (where is_master) as region_ctrl,
        avg(region_wait) as region_wait,
        avg(cross_thread_dep_wait) as cross_thread_dep_wait,
        avg(cross_thread_dep_ctrl) as cross_thread_dep_ctrl,
        avg(non_parallelized_code) as non_parallelized_code
    from per_thread_instance
    group by all
),

serial_paths as (
    select a.ancestor_id as callpath_id, sum(s.time_s) as non_parallelized_code
    from {{ ref('omp_serial_time') }} as s
    join {{ ref('callpath_ancestors') }} as a on s.callpath_id = a.descendant_id
    group by all
),

sequential as (
    select i.callpath_id, count(*) as nr_executions, sum(i.incl_s) as duration
    from {{ ref('region_instances') }} as i
    join {{ ref('omp_serial_time') }} as s using (callpath_id, location_id)
    group by all
)

select callpath_id, 'PRegion' as kind, null::bigint as location_id,
    row_number() over (partition by callpath_id order by fork_location_id, fork_seq) as instance_no,
    null::bigint as nr_executions, nr_threads, duration, non_parallelized_code, region_ctrl, region_wait,
    cross_thread_dep_wait, cross_thread_dep_ctrl
from instances

union all

select callpath_id, 'PRegion' as kind, location_id, null::bigint as instance_no, null::bigint as nr_executions,
    null::bigint as nr_threads, sum(duration) as duration, sum(non_parallelized_code) as non_parallelized_code,
    sum(region_ctrl) as region_ctrl,
    sum(region_wait) as region_wait,
    sum(cross_thread_dep_wait) as cross_thread_dep_wait,
    sum(cross_thread_dep_ctrl) as cross_thread_dep_ctrl
from per_thread_instance
group by callpath_id, location_id

union all

select callpath_id, 'PRegion' as kind, null::bigint as location_id, null::bigint as instance_no,
    count(*) as nr_executions, null::bigint as nr_threads, sum(duration) as duration,
    sum(non_parallelized_code) as non_parallelized_code,
    sum(region_ctrl) as region_ctrl,
    sum(region_wait) as region_wait,
    sum(cross_thread_dep_wait) as cross_thread_dep_wait, sum(cross_thread_dep_ctrl) as cross_thread_dep_ctrl
from instances
group by callpath_id

union all

select q.callpath_id, 'Function' as kind, null::bigint as location_id, null::bigint as instance_no,
    q.nr_executions, null::bigint as nr_threads, q.duration, p.non_parallelized_code,
    null::double as region_ctrl, null::double as region_wait, null::double as cross_thread_dep_wait,
    null::double as cross_thread_dep_ctrl
from sequential as q
join serial_paths as p using (callpath_id)
where exists (select 1 from {{ ref('parallel_instances') }})
