{#---
kind: pattern
parent: receive_matches
unit: s
requires: [trace]
info: Matches of the ASL pattern WrongOrder(r) - a message received while an older one from the same sender is in transfer.
description: |
  ASL §3.4.1.15, pattern WrongOrder(r): receive_matches with the CONSTRAINT that the
  message queue Mq(ROOT, sender, receiver) holds a message s sent before SendMsg
  (s sent at or before ROOT's time and not received by then, s.time < SendMsg.time);
  EXPORT cost_s = (ExitSend - EnterSend) + (ExitRecv - EnterRecv) = calls_s.
  Computed with one window per (sender, receiver): the latest receive time among the
  messages sent earlier (never received = still queued) exceeds ROOT's time. For a
  message received before it was sent (clock-condition violation) the queue is
  checked message by message, since then not every earlier send precedes ROOT.
diagnosis: See messages_in_wrong_order.
params:
  p_region: {default: null, type: VARCHAR, doc: "Focus region r of the pattern."}
---#}
with receive_matches as (
    select * from {{ ref('receive_matches') }}
),

messages as (
    select * from {{ ref('messages') }}
    where send_seq is not null
),

-- for every sent message: the latest time a message sent strictly earlier on the
-- same (sender, receiver) pair left the queue (never received: the maximum tick)
earlier_sends as (
    select
        send_location_id,
        send_seq,
        max(coalesce(recv_time, 18446744073709551615::ubigint)) over (
            partition by send_location_id, recv_location_id
            order by send_time
            range between unbounded preceding and current row exclude group
        ) as latest_earlier_recv_time
    from messages
),

in_order_clock as (
    select m.*
    from receive_matches as m
    join earlier_sends as e using (send_location_id, send_seq)
    where m.send_time <= m.recv_time and e.latest_earlier_recv_time > m.recv_time
),

clock_violations as (
    select m.*
    from receive_matches as m
    where m.send_time > m.recv_time and exists (
        select 1
        from messages as q
        where q.send_location_id = m.send_location_id
            and q.recv_location_id = m.location_id
            and q.send_time < m.send_time
            and q.send_time <= m.recv_time
            and (q.recv_time is null or q.recv_time > m.recv_time)
    )
)

select *, calls_s as cost_s from in_order_clock
union all
select *, calls_s as cost_s from clock_violations
