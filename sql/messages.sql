-- sendptr (CRE report §4.1, Fig. 15) as a table of messages: every receive
-- event matched to its send event by (experiment, communicator, source
-- location, destination location, tag), the k-th send with the k-th receive
-- (MPI's non-overtaking rule, FIFO). Ranks in message records are
-- communicator ranks; they are translated to locations through the
-- communicator's group (on MPI_COMM_SELF the partner is the location itself).
--
-- send_*: the send event (MPI_SEND / MPI_ISEND) and the call containing it;
-- send_complete_*: the event completing the send and its call (the send
-- itself for MPI_SEND, the MPI_ISEND_COMPLETE in a Wait/Test for MPI_ISEND);
-- recv_*: the receive event (MPI_RECV / MPI_IRECV) and the call completing it
-- (MPI_Recv, MPI_Wait*, MPI_Test*, ...); recv_post_*: the call that posted
-- the receive (MPI_Recv itself, or the MPI_Irecv holding MPI_IRECV_REQUEST).
-- A send without receive has NULL recv_* columns and vice versa.
-- *_call_enter_seq: seq of the call's Enter (identifies the call instance).
-- Times: *_time raw ticks, *_s seconds since the global offset.
{{ config(materialized='table') }}
{%- set call_columns = ['enter_seq', 'region_id', 'callpath_id', 'enter_time', 'leave_time'] %}
-- The point-to-point and request events, each with the call holding it.
with mpi_events as (
    select
        e.*,
        {%- for col in call_columns %}
        calls.call_{{ col }}{{ ',' if not loop.last }}
        {%- endfor %}
    from {{ ref('events') }} as e
    left join {{ ref('event_calls') }} as calls
        on e.experiment_id = calls.experiment_id
        and e.location_id = calls.location_id
        and e.seq = calls.seq
    where e.type in ('MPI_SEND', 'MPI_ISEND', 'MPI_RECV', 'MPI_IRECV',
                     'MPI_ISEND_COMPLETE', 'MPI_IRECV_REQUEST')
),

-- Sends and receives with the partner's communicator rank translated to a location.
p2p as (
    select
        e.*,
        case when c.is_self then e.location_id else m.location_id end as partner_location_id
    from mpi_events as e
    join {{ ref('communicators') }} as c
        on e.experiment_id = c.experiment_id and e.comm_id = c.comm_id
    left join {{ ref('communicator_members') }} as m
        on e.experiment_id = m.experiment_id
        and e.comm_id = m.comm_id
        and e.partner = m.comm_rank
    where e.type in ('MPI_SEND', 'MPI_ISEND', 'MPI_RECV', 'MPI_IRECV')
),

requests as (
    select * from mpi_events
    where type in ('MPI_ISEND_COMPLETE', 'MPI_IRECV_REQUEST')
),

sends as (
    select
        *,
        row_number() over (
            partition by experiment_id, comm_id, location_id, partner_location_id, tag
            order by seq
        ) as fifo_index
    from p2p
    where type in ('MPI_SEND', 'MPI_ISEND')
),

receives as (
    select
        *,
        row_number() over (
            partition by experiment_id, comm_id, partner_location_id, location_id, tag
            order by seq
        ) as fifo_index
    from p2p
    where type in ('MPI_RECV', 'MPI_IRECV')
),

-- An Isend completes at the first MPI_ISEND_COMPLETE with its request id
-- after it; an MPI_Send (or an Isend never completed) completes itself.
send_completions as (
    select
        s.experiment_id,
        s.location_id,
        s.seq,
        coalesce(c.seq, s.seq) as complete_seq,
        coalesce(c.time, s.time) as complete_time,
        {%- for col in call_columns %}
        case when c.seq is null then s.call_{{ col }} else c.call_{{ col }} end
            as complete_call_{{ col }}{{ ',' if not loop.last }}
        {%- endfor %}
    from sends as s
    asof left join (select * from requests where type = 'MPI_ISEND_COMPLETE') as c
        on s.experiment_id = c.experiment_id
        and s.location_id = c.location_id
        and s.request_id = c.request_id
        and s.seq < c.seq
),

-- An Irecv was posted by the last MPI_IRECV_REQUEST with its request id
-- before it; an MPI_Recv (or an Irecv without request) posts itself.
receive_posts as (
    select
        r.experiment_id,
        r.location_id,
        r.seq,
        coalesce(q.seq, r.seq) as post_seq,
        {%- for col in call_columns %}
        case when q.seq is null then r.call_{{ col }} else q.call_{{ col }} end
            as post_call_{{ col }}{{ ',' if not loop.last }}
        {%- endfor %}
    from receives as r
    asof left join (select * from requests where type = 'MPI_IRECV_REQUEST') as q
        on r.experiment_id = q.experiment_id
        and r.location_id = q.location_id
        and r.request_id = q.request_id
        and r.seq > q.seq
),

clock as (
    select experiment_id, global_offset, timer_resolution
    from {{ ref('experiments') }}
),

matched as (
    select
        coalesce(s.experiment_id, r.experiment_id) as experiment_id,
        coalesce(s.comm_id, r.comm_id) as comm_id,
        coalesce(s.tag, r.tag) as tag,
        coalesce(s.location_id, r.partner_location_id) as send_location_id,
        coalesce(r.location_id, s.partner_location_id) as recv_location_id,
        s.msg_bytes as send_bytes,
        r.msg_bytes as recv_bytes,
        s.type as send_type,
        s.seq as send_seq,
        s.time as send_time,
        r.type as recv_type,
        r.seq as recv_seq,
        r.time as recv_time,
        {%- for col in call_columns %}
        s.call_{{ col }} as send_call_{{ col }},
        {%- endfor %}
        {%- for col in call_columns %}
        r.call_{{ col }} as recv_call_{{ col }}{{ ',' if not loop.last }}
        {%- endfor %}
    from sends as s
    full join receives as r
        on s.experiment_id = r.experiment_id
        and s.comm_id = r.comm_id
        and s.location_id = r.partner_location_id
        and s.partner_location_id = r.location_id
        and s.tag = r.tag
        and s.fifo_index = r.fifo_index
)

select
    m.experiment_id, m.comm_id, m.tag, m.send_location_id, m.recv_location_id,
    m.send_bytes, m.recv_bytes,
    m.send_type, m.send_seq, m.send_time,
    m.recv_type, m.recv_seq, m.recv_time,
    {%- for col in call_columns %}
    m.send_call_{{ col }},
    {%- endfor %}
    coalesce(sc.complete_seq, m.send_seq) as send_complete_seq,
    coalesce(sc.complete_time, m.send_time) as send_complete_time,
    {%- for col in call_columns %}
    sc.complete_call_{{ col }} as send_complete_call_{{ col }},
    {%- endfor %}
    {%- for col in call_columns %}
    m.recv_call_{{ col }},
    {%- endfor %}
    coalesce(rp.post_seq, m.recv_seq) as recv_post_seq,
    {%- for col in call_columns %}
    rp.post_call_{{ col }} as recv_post_call_{{ col }},
    {%- endfor %}
    {{ ref('ticks_to_s') }}(m.send_time, clock.global_offset, clock.timer_resolution) as send_s,
    {{ ref('ticks_to_s') }}(m.recv_time, clock.global_offset, clock.timer_resolution) as recv_s
from matched as m
join clock using (experiment_id)
left join send_completions as sc
    on m.experiment_id = sc.experiment_id
    and m.send_location_id = sc.location_id
    and m.send_seq = sc.seq
left join receive_posts as rp
    on m.experiment_id = rp.experiment_id
    and m.recv_location_id = rp.location_id
    and m.recv_seq = rp.seq
