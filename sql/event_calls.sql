-- For every event that is not an Enter or Leave (nor ProgramBegin/End):
-- messages, collectives, metrics, thread events ...; the region instance that encloses it: the instance
-- enterptr points to, with its region, call path and Enter/Leave times.
with pointers as (
    select experiment_id, location_id, seq, enterptr
    from {{ ref('enterptr') }}
    where region_event is null
),

instances as (
    select * from {{ ref('region_instances') }}
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
left join instances
    on pointers.experiment_id = instances.experiment_id
    and pointers.location_id = instances.location_id
    and pointers.enterptr = instances.enter_seq
