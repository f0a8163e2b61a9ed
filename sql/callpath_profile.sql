-- The call-path profile: one row per (experiment, call path, location) with
-- what was measured there, the call path's own values (not its subtree):
-- executions (visits), incl_s / excl_s (seconds, inclusive / exclusive of
-- callees), bytes_sent / bytes_received (point-to-point plus collective),
-- messages_sent / messages_received (point-to-point).
--
-- From a trace: the region instances, messages and collective instances.
-- From a profile: the Score-P metrics visits, time, bytes_sent and
-- bytes_received of the call path's nodes (a metric with sub-metrics counts
-- them too, as Cube shows it); a profile does not count messages (NULL).
{{ config(materialized='table') }}
with recursive instance_ticks as (
    select
        experiment_id,
        callpath_id,
        location_id,
        count(*) as executions,
        sum(leave_time::bigint - enter_time::bigint) as incl_ticks,
        -- the instances that have a caller: their time is their caller's callee time
        coalesce(sum(leave_time::bigint - enter_time::bigint) filter (where caller_seq is not null), 0)
            as called_ticks
    from {{ ref('region_instances') }}
    group by all
),

-- a called instance's caller runs the parent call path on the same location
callee_ticks as (
    select t.experiment_id, c.parent_id as callpath_id, t.location_id, sum(t.called_ticks) as ticks
    from instance_ticks as t
    join {{ ref('callpaths') }} as c using (experiment_id, callpath_id)
    where c.parent_id is not null
    group by all
),

-- times summed in ticks, not seconds: exact, and the same in every run (a
-- parallel sum of doubles varies in its last bits with the order of the rows)
trace_time as (
    select
        t.experiment_id,
        t.callpath_id,
        t.location_id,
        t.executions,
        t.incl_ticks / x.timer_resolution as incl_s,
        (t.incl_ticks - coalesce(c.ticks, 0)) / x.timer_resolution as excl_s
    from instance_ticks as t
    join {{ ref('experiments') }} as x using (experiment_id)
    left join callee_ticks as c using (experiment_id, callpath_id, location_id)
),

p2p_sent as (
    select experiment_id, send_call_callpath_id as callpath_id, send_location_id as location_id,
        sum(send_bytes) as bytes, count(*) as messages
    from {{ ref('messages') }}
    where send_seq is not null
    group by all
),

p2p_received as (
    select experiment_id, recv_call_callpath_id as callpath_id, recv_location_id as location_id,
        sum(recv_bytes) as bytes, count(*) as messages
    from {{ ref('messages') }}
    where recv_seq is not null
    group by all
),

collective_bytes as (
    select experiment_id, call_callpath_id as callpath_id, location_id,
        sum(bytes_sent) as sent, sum(bytes_received) as received
    from {{ ref('collective_instances') }}
    group by all
),

from_trace as (
    select
        t.*,
        coalesce(s.bytes, 0) + coalesce(cb.sent, 0) as bytes_sent,
        coalesce(r.bytes, 0) + coalesce(cb.received, 0) as bytes_received,
        coalesce(s.messages, 0) as messages_sent,
        coalesce(r.messages, 0) as messages_received
    from trace_time as t
    left join p2p_sent as s using (experiment_id, callpath_id, location_id)
    left join p2p_received as r using (experiment_id, callpath_id, location_id)
    left join collective_bytes as cb using (experiment_id, callpath_id, location_id)
),

-- Each profile metric under the Score-P metric it adds to (itself or an ancestor).
metric_roots as (
    select experiment_id, metric_id, name as root
    from {{ ref('profile_metrics') }}
    where name in ('visits', 'time', 'bytes_sent', 'bytes_received')

    union all

    select m.experiment_id, m.metric_id, r.root
    from {{ ref('profile_metrics') }} as m
    join metric_roots as r
        on m.experiment_id = r.experiment_id and m.parent_id = r.metric_id
),

from_profile as (
    select
        v.experiment_id,
        c.callpath_id,
        v.location_id,
        sum(v.exclusive) filter (where r.root = 'visits')::bigint as executions,
        sum(v.inclusive) filter (where r.root = 'time') as incl_s,
        sum(v.exclusive) filter (where r.root = 'time') as excl_s,
        sum(v.exclusive) filter (where r.root = 'bytes_sent')::bigint as bytes_sent,
        sum(v.exclusive) filter (where r.root = 'bytes_received')::bigint as bytes_received,
        null::bigint as messages_sent,
        null::bigint as messages_received
    from {{ ref('profile_values') }} as v
    join metric_roots as r using (experiment_id, metric_id)
    join {{ ref('cnode_callpaths') }} as c using (experiment_id, cnode_id)
    group by all
),

measured as (
    select * from from_trace
    union all  -- both list the same columns in the same order
    select * from from_profile
)

select
    m.experiment_id,
    m.callpath_id,
    c.region_id,
    m.location_id,
    coalesce(m.executions, 0) as executions,
    coalesce(m.incl_s, 0) as incl_s,
    coalesce(m.excl_s, 0) as excl_s,
    coalesce(m.bytes_sent, 0) as bytes_sent,
    coalesce(m.bytes_received, 0) as bytes_received,
    m.messages_sent,
    m.messages_received
from measured as m
join {{ ref('callpaths') }} as c using (experiment_id, callpath_id)
