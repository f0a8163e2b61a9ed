-- Clock-condition violations: the call completing a receive left before the
-- call holding the matching send was entered, L(R) < E(S), which cannot
-- happen on synchronised clocks (docs/wait-states.md, "Clock condition").
-- Wait-state metrics clamp such idle times at zero.
select
    'clock_condition' as "check",
    recv_location_id as location_id,
    count(*) as count,
    'receive completed before its send started' as detail
from {{ ref('messages') }}
where recv_call_leave_time < send_call_enter_time
group by all
