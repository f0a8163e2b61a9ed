-- The ASL MPISummary (report §2.3.1, Appendix C) derived from the trace: one
-- row per (experiment, call path, location) and, with location_id NULL, one
-- per (experiment, call path) summed over all processes (ALLPROCESSES).
--
-- executions: visits (NrExecutions); incl_s / excl_s: Incl / Excl;
-- comm_s, sync_s, io_s: CommTime, SyncTime, IoTime, i.e. the exclusive time of
-- MPI communication / barrier / file-I/O calls in this call path's subtree;
-- bytes_sent / bytes_received: MessageLength split by direction, point-to-point
-- plus collective bytes, over the subtree; messages_sent / messages_received:
-- point-to-point messages over the subtree. All times in seconds.
with instances as (
    select * from {{ ref('region_instances') }}
),

classes as (
    select experiment_id, region_id, is_comm, is_sync, is_io
    from {{ ref('region_classes') }}
),

own_time as (
    select
        i.experiment_id,
        i.callpath_id,
        i.location_id,
        any_value(i.region_id) as region_id,
        count(*) as executions,
        sum(i.incl_s) as incl_s,
        sum(i.excl_s) as excl_s,
        sum(i.excl_s) filter (where c.is_comm) as comm_s,
        sum(i.excl_s) filter (where c.is_sync) as sync_s,
        sum(i.excl_s) filter (where c.is_io) as io_s
    from instances as i
    join classes as c using (experiment_id, region_id)
    group by all
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

own as (
    select
        t.*,
        coalesce(s.bytes, 0) + coalesce(cb.sent, 0) as bytes_sent,
        coalesce(r.bytes, 0) + coalesce(cb.received, 0) as bytes_received,
        coalesce(s.messages, 0) as messages_sent,
        coalesce(r.messages, 0) as messages_received
    from own_time as t
    left join p2p_sent as s using (experiment_id, callpath_id, location_id)
    left join p2p_received as r using (experiment_id, callpath_id, location_id)
    left join collective_bytes as cb using (experiment_id, callpath_id, location_id)
),

subtree as (
    select
        a.experiment_id,
        a.ancestor_id as callpath_id,
        d.location_id,
        coalesce(sum(d.comm_s), 0) as comm_s,
        coalesce(sum(d.sync_s), 0) as sync_s,
        coalesce(sum(d.io_s), 0) as io_s,
        sum(d.bytes_sent) as bytes_sent,
        sum(d.bytes_received) as bytes_received,
        sum(d.messages_sent) as messages_sent,
        sum(d.messages_received) as messages_received
    from {{ ref('callpath_ancestors') }} as a
    join own as d
        on a.experiment_id = d.experiment_id and a.descendant_id = d.callpath_id
    group by all
),

per_location as (
    select
        o.experiment_id,
        o.callpath_id,
        o.region_id,
        o.location_id,
        o.executions,
        o.incl_s,
        o.excl_s,
        s.comm_s,
        s.sync_s,
        s.io_s,
        s.bytes_sent,
        s.bytes_received,
        s.messages_sent,
        s.messages_received
    from own as o
    join subtree as s using (experiment_id, callpath_id, location_id)
)

select * from per_location

union all

select
    experiment_id,
    callpath_id,
    any_value(region_id),
    null::bigint as location_id,
    sum(executions),
    sum(incl_s),
    sum(excl_s),
    sum(comm_s),
    sum(sync_s),
    sum(io_s),
    sum(bytes_sent),
    sum(bytes_received),
    sum(messages_sent),
    sum(messages_received)
from per_location
group by experiment_id, callpath_id
