-- One row per region instance (an Enter with its matching Leave), with the
-- instance that called it. Times are raw ticks; region_instances adds seconds.
--
-- Matching: at one level of one location, region events alternate Enter,
-- Leave, Enter, ... so an Enter's Leave is the next region event at its level
-- (none, or another Enter, when the instance is never left: leave_* NULL).
-- Caller: the latest Enter one level up before this Enter (the instance open
-- on R^l when this one was entered; NULL for a top-level instance).
{{ config(materialized='table') }}
with paired as (
    select
        *,
        lead(region_event) over next_at_level as next_event,
        lead(seq) over next_at_level as next_seq,
        lead(time) over next_at_level as next_time,
        lead(region_id) over next_at_level as next_region_id
    from {{ ref('region_events') }}
    window next_at_level as (partition by experiment_id, location_id, level order by seq)
),

enters as (
    select * from paired where region_event = 'ENTER'
)

select
    child.experiment_id,
    child.location_id,
    child.seq as enter_seq,
    case when child.next_event = 'LEAVE' then child.next_seq end as leave_seq,
    child.region_id,
    case when child.next_event = 'LEAVE' then child.next_region_id end as leave_region_id,
    child.level as depth,
    caller.seq as caller_seq,
    child.time as enter_time,
    case when child.next_event = 'LEAVE' then child.next_time end as leave_time
from enters as child
asof left join (select experiment_id, location_id, level, seq from enters) as caller
    on child.experiment_id = caller.experiment_id
    and child.location_id = caller.location_id
    and child.level - 1 = caller.level
    and child.seq > caller.seq
