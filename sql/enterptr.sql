-- enterptr (CRE report §4.1, Fig. 12): for every event, the Enter event of the
-- youngest region instance on the region stack R^l just before the event.
-- For an Enter that is the caller's Enter (the innermost instance open after
-- the previous event on the location); for a Leave its own Enter; for any
-- other event (send, receive, collective, metric, ...) the enclosing call.
-- NULL when the event lies outside every region.
select
    experiment_id,
    location_id,
    seq,
    time,
    type,
    region_event,
    level,
    case region_event
        when 'ENTER' then lag(open_after) over (
            partition by experiment_id, location_id order by seq
        )
        when 'LEAVE' then own_enter_seq
        else open_after
    end as enterptr
from {{ ref('event_levels') }}
