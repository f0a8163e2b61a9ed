-- Hardware-counter deltas (PAPI etc.) of every region instance, per counter:
-- the ASL Exit event's counter attributes (report §2.3.1, §3.4.1.18). Only
-- counters in ACCUMULATED_START mode (a running total per location).
--
-- Which record belongs to which event: a Metric record belongs to the next
-- region event (Enter / Leave) of its location and carries the counter values
-- at that event. OTF2 documents it for the Metric record ("Synchronous
-- metrics are always located right before the according enter and leave
-- event", OTF2 event records, Metric: OTF2_EvtWriter_Metric / the Metric
-- callback, https://perftools.pages.jsc.fz-juelich.de/cicd/otf2/tags/latest/html/group__records__event.html),
-- and Score-P's tracing substrate writes them so (enter() / leave() in
-- src/measurement/tracing/SCOREP_Tracing_Events.c call
-- SCOREP_Metric_Write*Metrics with the event's timestamp, then
-- OTF2_EvtWriter_Enter / _Leave): the record comes first, same timestamp.
--
-- The value of a counter at a region event is the last record of it before
-- the event and after the location's previous region event. incl = value at
-- the instance's Leave - value at its Enter; excl subtracts the incl of the
-- instances it called. An instance whose Enter or Leave has no record has no
-- counter attributes and no row: the program root (Score-P writes
-- ProgramBegin / ProgramEnd without records) and instances never left.
-- Columns: location_id, enter_seq, callpath_id, caller_seq, counter, unit,
-- incl, excl (counter units).
with counters as (
    select experiment_id, metric_id, member_index, name, unit
    from {{ ref('metrics') }}
    where metric_mode = 'ACCUMULATED_START'
),

records as (
    select v.experiment_id, v.location_id, v.seq, v.metric_id, v.member_index, v.value
    from {{ ref('metric_values') }} as v
    join counters as k using (experiment_id, metric_id, member_index)
),

-- each record with the region event it belongs to: the next one of its location
event_values as (
    select
        r.experiment_id,
        r.location_id,
        e.seq as event_seq,
        r.metric_id,
        r.member_index,
        arg_max(r.value, r.seq) as value
    from records as r
    asof join (select experiment_id, location_id, seq from {{ ref('region_events') }}) as e
        on r.experiment_id = e.experiment_id
        and r.location_id = e.location_id
        and r.seq < e.seq
    group by all
),

per_instance as (
    select
        i.experiment_id,
        i.location_id,
        i.enter_seq,
        i.callpath_id,
        i.caller_seq,
        k.name as counter,
        k.unit,
        at_leave.value - at_enter.value as incl
    from {{ ref('region_instances') }} as i
    join event_values as at_enter
        on i.experiment_id = at_enter.experiment_id
        and i.location_id = at_enter.location_id
        and i.enter_seq = at_enter.event_seq
    join event_values as at_leave
        on i.experiment_id = at_leave.experiment_id
        and i.location_id = at_leave.location_id
        and i.leave_seq = at_leave.event_seq
        and at_enter.metric_id = at_leave.metric_id
        and at_enter.member_index = at_leave.member_index
    join counters as k
        on at_enter.experiment_id = k.experiment_id
        and at_enter.metric_id = k.metric_id
        and at_enter.member_index = k.member_index
),

callee_sums as (
    select experiment_id, location_id, caller_seq as enter_seq, counter, sum(incl) as callee_incl
    from per_instance
    where caller_seq is not null
    group by all
)

select
    w.experiment_id,
    w.location_id,
    w.enter_seq,
    w.callpath_id,
    w.caller_seq,
    w.counter,
    w.unit,
    w.incl,
    w.incl - coalesce(cs.callee_incl, 0) as excl
from per_instance as w
left join callee_sums as cs using (experiment_id, location_id, enter_seq, counter)
