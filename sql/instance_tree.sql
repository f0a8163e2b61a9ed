-- One row per region instance (an Enter with its matching Leave), with the
-- instance that called it. Times are raw ticks; region_instances adds seconds.
--
-- Matching: at one level of one location, region events alternate Enter,
-- Leave, Enter, ... so an Enter's Leave is the next region event at its level
-- (none, or another Enter, when the instance is never left: leave_* NULL).
-- Caller: the latest Enter one level up before this Enter (the instance open
-- on R^l when this one was entered; NULL for a top-level instance). The first
-- callee of an instance directly follows its Enter (region_events.
-- prev_enter_seq); each later callee follows a Leave at its own level and
-- shares the caller of the callee before it at that level. So one window pass
-- per (location, level) finds both, without a join.
{{ config(materialized='table', partitioned=true) }}
with at_level as (
    select
        *,
        lead(region_event) over same_level as next_event,
        lead(seq) over same_level as next_seq,
        lead(time) over same_level as next_time,
        lead(region_id) over same_level as next_region_id,
        last_value(case when region_event = 'ENTER' then prev_enter_seq end ignore nulls) over (
            same_level rows unbounded preceding
        ) as run_caller_seq
    from {{ ref('region_events') }}
    window same_level as (partition by experiment_id, location_id, level order by seq)
)

select
    experiment_id,
    location_id,
    seq as enter_seq,
    case when next_event = 'LEAVE' then next_seq end as leave_seq,
    region_id,
    case when next_event = 'LEAVE' then next_region_id end as leave_region_id,
    level as depth,
    run_caller_seq as caller_seq,
    time as enter_time,
    case when next_event = 'LEAVE' then next_time end as leave_time
from at_level
where region_event = 'ENTER'
