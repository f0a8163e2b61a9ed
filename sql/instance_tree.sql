-- One row per region instance (an Enter with its matching Leave), with the
-- instance that called it. Times are raw ticks; region_instances adds seconds.
-- leave_seq/leave_time are NULL for an instance whose Leave is missing.
with levels as (
    select * from {{ ref('event_levels') }}
    where region_event is not null
),

paired as (
    select
        experiment_id,
        location_id,
        own_enter_seq as enter_seq,
        any_value(region_id) filter (where region_event = 'ENTER') as region_id,
        any_value(level) filter (where region_event = 'ENTER') as depth,
        any_value(time) filter (where region_event = 'ENTER') as enter_time,
        any_value(seq) filter (where region_event = 'LEAVE') as leave_seq,
        any_value(time) filter (where region_event = 'LEAVE') as leave_time,
        any_value(region_id) filter (where region_event = 'LEAVE') as leave_region_id
    from levels
    where own_enter_seq is not null
    group by all
),

pointers as (
    select experiment_id, location_id, seq, enterptr as caller_seq
    from {{ ref('enterptr') }}
    where region_event = 'ENTER'
)

select
    paired.experiment_id,
    paired.location_id,
    paired.enter_seq,
    paired.leave_seq,
    paired.region_id,
    paired.leave_region_id,
    paired.depth,
    pointers.caller_seq,
    paired.enter_time,
    paired.leave_time
from paired
join pointers
    on paired.experiment_id = pointers.experiment_id
    and paired.location_id = pointers.location_id
    and paired.enter_seq = pointers.seq
