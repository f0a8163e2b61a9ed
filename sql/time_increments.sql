-- Scalasca's time map of every location (src/scout/TmapCacheHandler.cpp of
-- Scalasca 2.6) as its increments: the time between two consecutive region
-- events of a location is the exclusive time of the call path active in between,
-- recorded at the later event (an Enter charges the entered call path's parent,
-- a Leave the call path it leaves; the first event counts from time 0). The time
-- of a call path between two synchronisation points (sync_points) is the sum of
-- its increments with split_pos(from) <= pos < split_pos(to).
--
-- OpenMP (TmapCacheHandler fork / join callbacks): each thread's fork time,
-- max(0, E(parallel) - fork), and join time, max(0, join - L(parallel)), move
-- from the call path enclosing the parallel region into the parallel region; the
-- forking thread's ThreadJoin records the time since its last region event.
-- (cleared_increments lists what Scalasca clears on worker threads.)
--
-- Columns: location_id, pos (2 * seq of the recording event; + 1 for the time a
-- fork moves into the parallel region, which follows the FORK point), callpath_id,
-- amount_s (seconds; negative where fork or join time leaves the enclosing call
-- path).
{{ config(materialized='table', partitioned=true) }}
with experiments as (
    select experiment_id, global_offset, timer_resolution from {{ ref('experiments') }}
),

instances as (
    select i.experiment_id, i.location_id, i.enter_seq, i.leave_seq, i.callpath_id, c.parent_id, i.enter_s, i.leave_s
    from {{ ref('region_instances') }} as i
    join {{ ref('callpaths') }} as c using (experiment_id, callpath_id)
),

-- each thread's parallel-region instance with its fork and join time
parallel_regions as (
    select
        p.experiment_id,
        p.location_id,
        p.enter_seq,
        i.leave_seq,
        i.callpath_id,
        i.parent_id,
        p.location_id = p.fork_location_id as is_forking_thread,
        p.join_seq,
        {{ ref('ticks_to_s') }}(p.join_time, x.global_offset, x.timer_resolution) as join_s,
        greatest(0, i.enter_s - {{ ref('ticks_to_s') }}(p.fork_time, x.global_offset, x.timer_resolution))
            as fork_move_s,
        greatest(0, {{ ref('ticks_to_s') }}(p.join_time, x.global_offset, x.timer_resolution) - i.leave_s)
            as join_move_s
    from {{ ref('parallel_instances') }} as p
    join experiments as x using (experiment_id)
    join instances as i using (experiment_id, location_id, enter_seq)
),

-- the region events of every location, and the forking thread's ThreadJoin,
-- each with the call path its preceding interval is charged to
recording_events as (
    select experiment_id, location_id, enter_seq as seq, enter_s as time_s, parent_id as charged_callpath_id
    from instances
    union all
    select experiment_id, location_id, leave_seq, leave_s, callpath_id
    from instances
    where leave_seq is not null
    union all
    select experiment_id, location_id, join_seq, join_s, parent_id
    from parallel_regions
    where is_forking_thread and join_seq is not null
),

increments as (
    select
        experiment_id,
        location_id,
        2 * seq as pos,
        charged_callpath_id as callpath_id,
        time_s - coalesce(lag(time_s) over (partition by experiment_id, location_id order by seq), 0) as amount_s
    from recording_events
    qualify charged_callpath_id is not null

    union all

    -- fork and join time move from the enclosing call path into the parallel region
    select experiment_id, location_id, 2 * enter_seq, parent_id, -fork_move_s
    from parallel_regions where parent_id is not null
    union all
    select experiment_id, location_id, 2 * enter_seq + 1, callpath_id, fork_move_s
    from parallel_regions
    union all
    select experiment_id, location_id, 2 * leave_seq, parent_id, -join_move_s
    from parallel_regions where parent_id is not null
    union all
    select experiment_id, location_id, 2 * leave_seq, callpath_id, join_move_s
    from parallel_regions
)

select experiment_id, location_id, pos, callpath_id, amount_s from increments
