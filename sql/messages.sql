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
-- Times: *_time raw ticks, *_s seconds since the global offset.
with p2p as (
    select
        e.experiment_id,
        e.location_id,
        e.seq,
        e.time,
        e.type,
        e.comm_id,
        e.tag,
        e.msg_bytes,
        e.request_id,
        case when c.is_self then e.location_id else m.location_id end as partner_location_id
    from {{ ref('events') }} as e
    join {{ ref('communicators') }} as c
        on e.experiment_id = c.experiment_id and e.comm_id = c.comm_id
    left join {{ ref('communicator_members') }} as m
        on e.experiment_id = m.experiment_id
        and e.comm_id = m.comm_id
        and e.partner = m.comm_rank
    where e.type in ('MPI_SEND', 'MPI_ISEND', 'MPI_RECV', 'MPI_IRECV')
),

calls as (
    select * from {{ ref('event_calls') }}
),

requests as (
    select experiment_id, location_id, seq, time, type, request_id
    from {{ ref('events') }}
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

-- An Isend completes at the first MPI_ISEND_COMPLETE with its request id after it.
send_completions as (
    select s.experiment_id, s.location_id, s.seq, c.seq as complete_seq, c.time as complete_time
    from sends as s
    asof join (select * from requests where type = 'MPI_ISEND_COMPLETE') as c
        on s.experiment_id = c.experiment_id
        and s.location_id = c.location_id
        and s.request_id = c.request_id
        and s.seq < c.seq
    where s.type = 'MPI_ISEND'
),

-- An Irecv was posted by the last MPI_IRECV_REQUEST with its request id before it.
receive_posts as (
    select r.experiment_id, r.location_id, r.seq, q.seq as post_seq
    from receives as r
    asof join (select * from requests where type = 'MPI_IRECV_REQUEST') as q
        on r.experiment_id = q.experiment_id
        and r.location_id = q.location_id
        and r.request_id = q.request_id
        and r.seq > q.seq
    where r.type = 'MPI_IRECV'
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
        r.time as recv_time
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
    m.*,
    send_call.call_region_id as send_call_region_id,
    send_call.call_callpath_id as send_call_callpath_id,
    send_call.call_enter_time as send_call_enter_time,
    send_call.call_leave_time as send_call_leave_time,
    coalesce(sc.complete_seq, m.send_seq) as send_complete_seq,
    coalesce(sc.complete_time, m.send_time) as send_complete_time,
    complete_call.call_region_id as send_complete_call_region_id,
    complete_call.call_callpath_id as send_complete_call_callpath_id,
    complete_call.call_enter_time as send_complete_call_enter_time,
    complete_call.call_leave_time as send_complete_call_leave_time,
    recv_call.call_region_id as recv_call_region_id,
    recv_call.call_callpath_id as recv_call_callpath_id,
    recv_call.call_enter_time as recv_call_enter_time,
    recv_call.call_leave_time as recv_call_leave_time,
    coalesce(rp.post_seq, m.recv_seq) as recv_post_seq,
    post_call.call_region_id as recv_post_call_region_id,
    post_call.call_callpath_id as recv_post_call_callpath_id,
    post_call.call_enter_time as recv_post_call_enter_time,
    post_call.call_leave_time as recv_post_call_leave_time,
    (m.send_time::bigint - clock.global_offset) / clock.timer_resolution as send_s,
    (m.recv_time::bigint - clock.global_offset) / clock.timer_resolution as recv_s
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
left join calls as send_call
    on m.experiment_id = send_call.experiment_id
    and m.send_location_id = send_call.location_id
    and m.send_seq = send_call.seq
left join calls as complete_call
    on m.experiment_id = complete_call.experiment_id
    and m.send_location_id = complete_call.location_id
    and coalesce(sc.complete_seq, m.send_seq) = complete_call.seq
left join calls as recv_call
    on m.experiment_id = recv_call.experiment_id
    and m.recv_location_id = recv_call.location_id
    and m.recv_seq = recv_call.seq
left join calls as post_call
    on m.experiment_id = post_call.experiment_id
    and m.recv_location_id = post_call.location_id
    and coalesce(rp.post_seq, m.recv_seq) = post_call.seq
