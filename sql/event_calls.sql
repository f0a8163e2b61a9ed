-- For every event that is not an Enter or Leave (nor ProgramBegin/End):
-- messages, collectives, metrics, thread events ...; the region instance that
-- encloses it (its enterptr, CRE report §4.1): with its region, call path and
-- Enter/Leave times. The enclosing instance follows from the last region
-- event before the event: that Enter's instance, or, after a Leave, the
-- caller of the instance the Leave closed. NULL outside every region.
{{ config(materialized='table', partitioned=true) }}
with others as (
    select experiment_id, location_id, seq
    from {{ ref('events') }}
    where type not in ('ENTER', 'LEAVE', 'PROGRAM_BEGIN', 'PROGRAM_END')
),

last_region_event as (
    select o.experiment_id, o.location_id, o.seq, r.seq as region_seq, r.region_event
    from others as o
    asof left join (select experiment_id, location_id, seq, region_event from {{ ref('region_events') }}) as r
        on o.experiment_id = r.experiment_id
        and o.location_id = r.location_id
        and o.seq > r.seq
),

pointers as (
    select
        l.experiment_id,
        l.location_id,
        l.seq,
        case when l.region_event = 'ENTER' then l.region_seq else closed.caller_seq end as enterptr
    from last_region_event as l
    left join {{ ref('instance_tree') }} as closed  -- matches Leaves only: seq is unique
        on l.experiment_id = closed.experiment_id
        and l.location_id = closed.location_id
        and l.region_seq = closed.leave_seq
)

select
    pointers.experiment_id,
    pointers.location_id,
    pointers.seq,
    instances.enter_seq as call_enter_seq,
    instances.region_id as call_region_id,
    instances.callpath_id as call_callpath_id,
    instances.enter_time as call_enter_time,
    instances.leave_time as call_leave_time
from pointers
left join {{ ref('region_instances') }} as instances
    on pointers.experiment_id = instances.experiment_id
    and pointers.location_id = instances.location_id
    and pointers.enterptr = instances.enter_seq
