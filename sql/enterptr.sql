-- enterptr (CRE report §4.1, Fig. 12): for every event, the Enter event of the
-- youngest region instance on the region stack R^l just before the event.
-- For an Enter that is the caller's Enter; for a Leave its own Enter; for any
-- other event (send, receive, collective, metric, ...) the enclosing call.
-- NULL when the event lies outside every region. Join events on
-- (experiment_id, location_id, seq) for the event itself.
select experiment_id, location_id, enter_seq as seq, caller_seq as enterptr
from {{ ref('instance_tree') }}

union all

select experiment_id, location_id, leave_seq, enter_seq
from {{ ref('instance_tree') }}
where leave_seq is not null

union all

-- a Leave that closes no open instance
select experiment_id, location_id, seq, null
from {{ ref('region_events') }}
where level <= 0

union all

select experiment_id, location_id, seq, call_enter_seq
from {{ ref('event_calls') }}
