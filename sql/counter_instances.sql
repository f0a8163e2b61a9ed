-- Hardware-counter deltas (PAPI etc.) of every region instance, per counter:
-- the ASL Exit event's counter attributes (report §2.3.1, §3.4.1.18). incl is
-- the counter's value at the instance's last Metric record minus its value at
-- the first (Score-P writes one right after the Enter and one right before the
-- Leave); excl subtracts the incl of the instances it called. Only counters in
-- ACCUMULATED_START mode; instances without Metric records have no row.
-- Columns: location_id, enter_seq, callpath_id, caller_seq, counter, unit,
-- incl, excl (counter units).
with calls as (
    select experiment_id, location_id, seq, call_enter_seq
    from {{ ref('event_calls') }}
),

counters as (
    select experiment_id, metric_id, member_index, name, unit
    from {{ ref('metrics') }}
    where metric_mode = 'ACCUMULATED_START'
),

per_instance as (
    select
        v.experiment_id,
        v.location_id,
        c.call_enter_seq as enter_seq,
        k.name as counter,
        k.unit,
        arg_max(v.value, v.seq) - arg_min(v.value, v.seq) as incl
    from {{ ref('metric_values') }} as v
    join calls as c using (experiment_id, location_id, seq)
    join counters as k using (experiment_id, metric_id, member_index)
    where c.call_enter_seq is not null
    group by all
),

with_callees as (
    select
        p.*,
        i.callpath_id,
        i.caller_seq
    from per_instance as p
    join {{ ref('region_instances') }} as i using (experiment_id, location_id, enter_seq)
),

callee_sums as (
    select experiment_id, location_id, caller_seq as enter_seq, counter, sum(incl) as callee_incl
    from with_callees
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
from with_callees as w
left join callee_sums as cs using (experiment_id, location_id, enter_seq, counter)
