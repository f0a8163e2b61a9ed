-- The point-to-point send and receive events of every location, prepared for
-- matching (messages): each with its partner's location, its place in the FIFO
-- of its (communicator, sender, receiver, tag) channel and the calls involved.
-- Everything here is known on the event's own location, so it is computed one
-- location partition at a time; messages then joins sends and receives.
--
-- type: MPI_SEND / MPI_ISEND / MPI_RECV / MPI_IRECV; partner_location_id: the
-- message's other end (ranks in message records are communicator ranks,
-- translated through the communicator's group; on MPI_COMM_SELF the location
-- itself); fifo_index: the k-th send (or receive) of its channel in event order
-- (MPI's non-overtaking rule); call_*: the call holding the event; complete_* (a
-- send): the event completing it and its call (the send itself for MPI_SEND, the
-- first MPI_ISEND_COMPLETE with its request id after an MPI_ISEND); post_* (a
-- receive): the event and call that posted it (MPI_RECV itself, or the last
-- MPI_IRECV_REQUEST with its request id before an MPI_IRECV).
-- *_call_enter_seq: seq of the call's Enter; *_time raw ticks.
{{ config(materialized='table', partitioned=true) }}
{%- set call_types = {'enter_seq': 'bigint', 'region_id': 'integer', 'callpath_id': 'bigint',
                      'enter_time': 'ubigint', 'leave_time': 'ubigint'} %}
{%- set call_columns = call_types.keys() | list %}
-- The point-to-point and request events, each with the call holding it.
with mpi_events as (
    select
        e.experiment_id,
        e.location_id,
        e.seq,
        e.type,
        e.time,
        e.comm_id,
        e.partner,
        e.tag,
        e.msg_bytes,
        e.request_id,
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

numbered as (
    select
        *,
        row_number() over (
            partition by
                experiment_id, comm_id, location_id, partner_location_id, tag, type in ('MPI_SEND', 'MPI_ISEND')
            order by seq
        ) as fifo_index
    from p2p
),

-- Each side is its own branch of one union (no join back to numbered): a send
-- has NULL post_* columns, a receive NULL complete_* columns.
-- An Isend completes at the first MPI_ISEND_COMPLETE with its request id
-- after it; an MPI_Send (or an Isend never completed) completes itself.
sends as (
    select
        s.experiment_id, s.location_id, s.seq, s.type, s.time, s.comm_id, s.partner_location_id, s.tag,
        s.msg_bytes, s.fifo_index,
        {%- for col in call_columns %}
        s.call_{{ col }},
        {%- endfor %}
        coalesce(c.seq, s.seq) as complete_seq,
        coalesce(c.time, s.time) as complete_time,
        {%- for col in call_columns %}
        case when c.seq is null then s.call_{{ col }} else c.call_{{ col }} end
            as complete_call_{{ col }},
        {%- endfor %}
        null::bigint as post_seq,
        {%- for col in call_columns %}
        null::{{ call_types[col] }} as post_call_{{ col }}{{ ',' if not loop.last }}
        {%- endfor %}
    from (select * from numbered where type in ('MPI_SEND', 'MPI_ISEND')) as s
    asof left join (select * from requests where type = 'MPI_ISEND_COMPLETE') as c
        on s.experiment_id = c.experiment_id
        and s.location_id = c.location_id
        and s.request_id = c.request_id
        and s.seq < c.seq
),

-- An Irecv was posted by the last MPI_IRECV_REQUEST with its request id
-- before it; an MPI_Recv (or an Irecv without request) posts itself.
receives as (
    select
        r.experiment_id, r.location_id, r.seq, r.type, r.time, r.comm_id, r.partner_location_id, r.tag,
        r.msg_bytes, r.fifo_index,
        {%- for col in call_columns %}
        r.call_{{ col }},
        {%- endfor %}
        null::bigint as complete_seq,
        null::ubigint as complete_time,
        {%- for col in call_columns %}
        null::{{ call_types[col] }} as complete_call_{{ col }},
        {%- endfor %}
        coalesce(q.seq, r.seq) as post_seq,
        {%- for col in call_columns %}
        case when q.seq is null then r.call_{{ col }} else q.call_{{ col }} end
            as post_call_{{ col }}{{ ',' if not loop.last }}
        {%- endfor %}
    from (select * from numbered where type in ('MPI_RECV', 'MPI_IRECV')) as r
    asof left join (select * from requests where type = 'MPI_IRECV_REQUEST') as q
        on r.experiment_id = q.experiment_id
        and r.location_id = q.location_id
        and r.request_id = q.request_id
        and r.seq > q.seq
)

select * from sends
union all
select * from receives
