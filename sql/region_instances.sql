-- Region instances (one visit of a region on a location) with call path and
-- times. *_time are raw ticks; *_s are seconds (enter_s/leave_s since the
-- experiment's global offset). excl_s = incl_s minus the inclusive time of
-- the instances it called. enter_seq identifies the instance on its location.
{{ config(materialized='table', partitioned=true) }}
with tree as (
    select i.*, p.path_hash
    from {{ ref('instance_tree') }} as i
    join {{ ref('instance_paths') }} as p using (experiment_id, location_id, enter_seq)
),

callpaths as (
    select experiment_id, callpath_id, path_hash
    from {{ ref('callpaths') }}
),

clock as (
    select experiment_id, global_offset, timer_resolution
    from {{ ref('experiments') }}
),

callees as (
    select
        experiment_id,
        location_id,
        caller_seq,
        sum(leave_time::bigint - enter_time::bigint) as callee_ticks
    from tree
    where caller_seq is not null
    group by all
)

select
    tree.experiment_id,
    tree.location_id,
    tree.enter_seq,
    tree.leave_seq,
    tree.region_id,
    callpaths.callpath_id,
    tree.depth,
    tree.caller_seq,
    tree.enter_time,
    tree.leave_time,
    {{ ref('ticks_to_s') }}(tree.enter_time, clock.global_offset, clock.timer_resolution) as enter_s,
    {{ ref('ticks_to_s') }}(tree.leave_time, clock.global_offset, clock.timer_resolution) as leave_s,
    (tree.leave_time::bigint - tree.enter_time::bigint) / clock.timer_resolution as incl_s,
    (tree.leave_time::bigint - tree.enter_time::bigint - coalesce(callees.callee_ticks, 0))
        / clock.timer_resolution as excl_s
from tree
join callpaths using (experiment_id, path_hash)
join clock using (experiment_id)
left join callees
    on tree.experiment_id = callees.experiment_id
    and tree.location_id = callees.location_id
    and tree.enter_seq = callees.caller_seq
