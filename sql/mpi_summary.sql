-- The ASL MPISummary (report §2.3.1, Appendix C) of a trace or a profile: one
-- row per (experiment, call path, location) and, with location_id NULL, one
-- per (experiment, call path) summed over all processes (ALLPROCESSES).
--
-- executions: visits (NrExecutions); incl_s / excl_s: Incl / Excl;
-- comm_s, sync_s, io_s: CommTime, SyncTime, IoTime, i.e. the exclusive time of
-- MPI communication / barrier / file-I/O calls in this call path's subtree;
-- bytes_sent / bytes_received: MessageLength split by direction, point-to-point
-- plus collective bytes, over the subtree;
-- messages_sent / messages_received: point-to-point messages over the subtree
-- (NULL for a profile). All times in seconds. Built on callpath_profile, so
-- traces and profiles share it.
--
-- IdleTime, "idle time in communication", is not here: the model does not know
-- the catalog's wait states, which define it (pattern idle_time, properties/asl_mpi/).
with classes as (
    select experiment_id, region_id, is_comm, is_sync, is_io
    from {{ ref('region_classes') }}
),

own as (
    select
        p.*,
        case when c.is_comm then p.excl_s end as comm_s,
        case when c.is_sync then p.excl_s end as sync_s,
        case when c.is_io then p.excl_s end as io_s
    from {{ ref('callpath_profile') }} as p
    join classes as c using (experiment_id, region_id)
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
