-- Collective operations, one row per (instance, participating location).
-- The k-th collective completed on communicator c by every member location
-- is one instance (comm_id, instance_index = k); on a one-rank communicator
-- such as MPI_COMM_SELF each location has instances of its own.
-- begin_*/end_*: the MpiCollectiveBegin (B) / MpiCollectiveEnd (X) events;
-- call_*: Enter (E) / Leave (L) of the collective call holding them.
-- root_location_id: the root translated from its communicator rank.
-- *_time raw ticks, *_s seconds since the global offset.
{{ config(materialized='table', partitioned=true) }}
with ends as (
    select
        experiment_id, location_id, seq, time, comm_id, coll_op, root,
        bytes_sent, bytes_received
    from {{ ref('events') }}
    where type = 'MPI_COLLECTIVE_END'
),

begins as (
    select experiment_id, location_id, seq, time
    from {{ ref('events') }}
    where type = 'MPI_COLLECTIVE_BEGIN'
),

-- X pairs with the latest B before it on the same location.
paired as (
    select
        ends.*,
        begins.seq as begin_seq,
        begins.time as begin_time
    from ends
    asof left join begins
        on ends.experiment_id = begins.experiment_id
        and ends.location_id = begins.location_id
        and ends.seq > begins.seq
),

numbered as (
    select
        *,
        row_number() over (
            partition by experiment_id, comm_id, location_id order by seq
        ) as instance_index
    from paired
),

comms as (
    select * from {{ ref('communicators') }}
),

members as (
    select * from {{ ref('communicator_members') }}
),

calls as (
    select * from {{ ref('event_calls') }}
),

clock as (
    select experiment_id, global_offset, timer_resolution
    from {{ ref('experiments') }}
)

select
    n.experiment_id,
    n.comm_id,
    n.instance_index,
    n.location_id,
    case when comms.is_self then 0 else own.comm_rank end as comm_rank,
    comms.size as comm_size,
    n.coll_op,
    n.root as root_rank,
    case when comms.is_self then n.location_id else root.location_id end as root_location_id,
    n.bytes_sent,
    n.bytes_received,
    n.begin_seq,
    n.begin_time,
    n.seq as end_seq,
    n.time as end_time,
    calls.call_enter_seq,
    calls.call_region_id,
    calls.call_callpath_id,
    calls.call_enter_time,
    calls.call_leave_time,
    {{ ref('ticks_to_s') }}(n.begin_time, clock.global_offset, clock.timer_resolution) as begin_s,
    {{ ref('ticks_to_s') }}(n.time, clock.global_offset, clock.timer_resolution) as end_s,
    {{ ref('ticks_to_s') }}(calls.call_enter_time, clock.global_offset, clock.timer_resolution) as call_enter_s,
    {{ ref('ticks_to_s') }}(calls.call_leave_time, clock.global_offset, clock.timer_resolution) as call_leave_s
from numbered as n
join comms
    on n.experiment_id = comms.experiment_id and n.comm_id = comms.comm_id
join clock
    on n.experiment_id = clock.experiment_id
left join members as own
    on n.experiment_id = own.experiment_id
    and n.comm_id = own.comm_id
    and n.location_id = own.location_id
left join members as root
    on n.experiment_id = root.experiment_id
    and n.comm_id = root.comm_id
    and n.root = root.comm_rank
left join calls
    on n.experiment_id = calls.experiment_id
    and n.location_id = calls.location_id
    and n.seq = calls.seq
