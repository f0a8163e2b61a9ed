{#---
kind: pattern
parent: receive_matches
unit: s
requires: [trace]
added_columns: {send_call_s: DOUBLE, recv_call_s: DOUBLE, cost_s: DOUBLE}
info: Matches of the ASL pattern WrongOrder(r) - a message received while an older one from the same sender is in transfer.
description: |
  ASL §3.4.1.15, pattern WrongOrder(r) (CRE report §6.3): receive_matches with the
  CONSTRAINT that the message queue Mq(ROOT, sender, receiver) holds a message s sent
  before SendMsg (s sent at or before ROOT's time and not received by then,
  s.time < SendMsg.time); EXPORT cost_s = (ExitSend - EnterSend) + (ExitRecv - EnterRecv).
  Every point-to-point form that messages matches: sends of MPI_Send, MPI_Ssend,
  MPI_Bsend, MPI_Rsend, MPI_Sendrecv and MPI_Isend/Issend/Ibsend/Irsend (the Send event
  lies in that call); receives of MPI_Recv, MPI_Mrecv, MPI_Sendrecv and MPI_Irecv. The
  receive happens at its Receive event, which OTF2 records in the call completing the
  receive: MPI_Recv itself, for MPI_Irecv the MPI_Wait/Waitall/Waitany/Waitsome/Test*
  that completes it. Messages completed by the same call are received together: an
  older message completed in ROOT's own call is not in the queue at ROOT (the order of
  the Receive events inside one Wait* call is the order the call reports its requests,
  not an order of receipt). EnterRecv/ExitRecv are the completing call (enterptr(ROOT)),
  EnterSend/ExitSend the call holding the Send event (MPI_Isend, not its Wait); a call
  completing several wrong-order messages (MPI_Waitall/Waitsome) counts its duration
  once, with its first such message. cost_s = send_call_s + recv_call_s.
  Computed with one window per (sender, receiver): the latest receiving call among the
  messages sent earlier (never received = still queued) comes after ROOT's call. For a
  message received before it was sent (clock-condition violation) the queue is
  checked message by message, since then not every earlier send precedes ROOT.
diagnosis: See messages_in_wrong_order.
params:
  p_region: {default: null, type: VARCHAR, doc: "Focus region r of the pattern."}
---#}
-- The rule, from ASL §3.4.1.15 (EXISTS s IN Mq(ROOT, SendMsg.Process, ROOT.Process)
-- SUCH THAT s.Timestamp < SendMsg.Timestamp) with the message queue of CRE report §4.1
-- (sent at or before ROOT, not received before ROOT): s is still in the queue when ROOT
-- is received iff s was sent by then and is received (its Receive event, in the call
-- completing it) in a call after ROOT's completing call, or never. Calls on the
-- receiver are ordered by their Enter seq; a Receive event in no call stands for itself.
with receive_matches as (
    select * from {{ ref('receive_matches') }}
),

messages as (
    select * from {{ ref('messages') }}
    where send_seq is not null
),

experiments as (
    select * from {{ ref('experiments') }}
),

-- when each message leaves the queue: the position of the call completing its
-- receive on the receiver (never received: after every call)
dequeued as (
    select
        send_location_id,
        recv_location_id,
        send_seq,
        send_time,
        case when recv_seq is null then 9223372036854775807 else coalesce(recv_call_enter_seq, recv_seq) end
            as recv_order
    from messages
),

-- the latest dequeue among the messages sent at one time on a (sender, receiver) pair
dequeued_at as (
    select send_location_id, recv_location_id, send_time, max(recv_order) as recv_order
    from dequeued
    group by all
),

-- ... and among those sent strictly earlier: the send times before
earlier_at as (
    select
        send_location_id,
        recv_location_id,
        send_time,
        max(recv_order) over (
            partition by send_location_id, recv_location_id
            order by send_time
            rows between unbounded preceding and 1 preceding
        ) as latest_earlier_recv_order
    from dequeued_at
),

-- for every sent message: the latest dequeue among the messages sent strictly
-- earlier on the same (sender, receiver) pair
earlier_sends as (
    select d.send_location_id, d.send_seq, e.latest_earlier_recv_order
    from dequeued as d
    join earlier_at as e using (send_location_id, recv_location_id, send_time)
),

roots as (
    select *, coalesce(recv_call_enter_seq, recv_seq) as recv_order
    from receive_matches
),

in_order_clock as (
    select m.*
    from roots as m
    join earlier_sends as e using (send_location_id, send_seq)
    where m.send_time <= m.recv_time and e.latest_earlier_recv_order > m.recv_order
),

clock_violations as (
    select m.*
    from roots as m
    where m.send_time > m.recv_time and exists (
        select 1
        from dequeued as q
        where q.send_location_id = m.send_location_id
            and q.recv_location_id = m.location_id
            and q.send_time < m.send_time
            and q.send_time <= m.recv_time
            and q.recv_order > m.recv_order
    )
),

wrong_order as (
    select * from in_order_clock
    union all
    select * from clock_violations
),

costs as (
    select
        w.* exclude (recv_order),
        (w.send_call_leave_time::bigint - w.send_call_enter_time::bigint) / x.timer_resolution as send_call_s,
        case
            when row_number() over (partition by w.location_id, w.recv_order order by w.recv_seq) = 1
                then (w.recv_call_leave_time::bigint - w.recv_call_enter_time::bigint) / x.timer_resolution
            else 0
        end as recv_call_s
    from wrong_order as w
    cross join experiments as x
)

select *, send_call_s + recv_call_s as cost_s
from costs
