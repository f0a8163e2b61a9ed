-- OpenMP model enhancement: one row per (parallel-region instance, team thread).
-- A fork (ThreadFork on the forking thread, OmpFork in traces of older Score-P
-- versions) opens a parallel region; every team thread then enters the parallel
-- region (between ThreadTeamBegin/End, if recorded) and the forking thread joins
-- (ThreadJoin, OmpJoin). A thread's parallel-region instance belongs
-- to the latest fork of its process before it (one level of parallelism: nested
-- teams are not separated).
--
-- Columns: location_id, enter_seq, region_id, rank, thread, enter_time,
-- leave_time (the thread's instance, ticks), team_begin_time, team_end_time (its
-- ThreadTeamBegin before and ThreadTeamEnd after it); fork_location_id, fork_seq,
-- fork_time, join_seq, join_time (ticks) identify the team; team_size (threads
-- in the team) and process_threads (CPU threads of the process, so a team of
-- fewer threads has idle threads); parent_seq: the instance on the forking
-- thread that encloses the fork, the call-tree parent of every team thread's
-- parallel region (as in Scalasca, where a worker's parallel region hangs under
-- the master's call path).
{{ config(materialized='table', partitioned=true) }}
with threads as (
    select
        experiment_id, location_id, location_group_id, rank, thread,
        count(*) over (partition by experiment_id, location_group_id) as process_threads
    from {{ ref('locations') }}
    where location_type = 'CPU_THREAD'
),

thread_events as (
    select
        e.experiment_id, e.location_id, e.seq, e.time, t.location_group_id,
        case e.type when 'OMP_FORK' then 'THREAD_FORK' when 'OMP_JOIN' then 'THREAD_JOIN' else e.type end as type
    from {{ ref('events') }} as e
    join threads as t using (experiment_id, location_id)
    where e.type in ('THREAD_FORK', 'THREAD_JOIN', 'THREAD_TEAM_BEGIN', 'THREAD_TEAM_END', 'OMP_FORK', 'OMP_JOIN')
),

forks as (
    select
        f.experiment_id,
        f.location_group_id,
        f.location_id as fork_location_id,
        f.seq as fork_seq,
        f.time as fork_time,
        j.seq as join_seq,
        j.time as join_time
    from (select * from thread_events where type = 'THREAD_FORK') as f
    asof left join (select * from thread_events where type = 'THREAD_JOIN') as j
        on f.experiment_id = j.experiment_id
        and f.location_id = j.location_id
        and f.seq < j.seq
),

parallel_regions as (
    select i.experiment_id, i.location_id, i.enter_seq, i.region_id, i.caller_seq, i.enter_time, i.leave_time,
        t.location_group_id, t.rank, t.thread, t.process_threads
    from {{ ref('instance_tree') }} as i
    join {{ ref('regions') }} as r using (experiment_id, region_id)
    join threads as t using (experiment_id, location_id)
    where r.paradigm = 'OPENMP' and r.role = 'PARALLEL'
),

teamed as (
    select p.*, f.* exclude (experiment_id, location_group_id), b.time as team_begin_time, e.time as team_end_time
    from parallel_regions as p
    asof join forks as f
        on p.experiment_id = f.experiment_id
        and p.location_group_id = f.location_group_id
        and p.enter_time >= f.fork_time
    asof left join (select * from thread_events where type = 'THREAD_TEAM_BEGIN') as b
        on p.experiment_id = b.experiment_id and p.location_id = b.location_id and p.enter_seq > b.seq
    asof left join (select * from thread_events where type = 'THREAD_TEAM_END') as e
        on p.experiment_id = e.experiment_id and p.location_id = e.location_id and p.enter_seq < e.seq
)

select
    experiment_id,
    location_id,
    enter_seq,
    region_id,
    rank,
    thread,
    enter_time,
    leave_time,
    team_begin_time,
    team_end_time,
    fork_location_id,
    fork_seq,
    fork_time,
    join_seq,
    join_time,
    count(*) over team as team_size,
    process_threads,
    max(case when location_id = fork_location_id then caller_seq end) over team as parent_seq
from teamed
window team as (partition by experiment_id, fork_location_id, fork_seq)
