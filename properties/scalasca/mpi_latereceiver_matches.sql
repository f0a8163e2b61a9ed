{#---
kind: pattern
parent: null
unit: s
requires: [trace]
info: Scalasca Late Receiver instances - one per send-completing call that waited for a late receive.
description: |
  reference/wait-states.md, mpi_latereceiver: idle = E(Rreq) - E(Scmp) when
  L(Scmp) > E(Rreq), where Scmp is the call completing the send (MPI_Send/MPI_Ssend,
  or the MPI_Wait* completing an MPI_Isend) and Rreq the call that posted the
  receive (MPI_Recv or MPI_Irecv). Counted when > 0. A call completing several sends
  (MPI_Waitall) counts its largest idle, once: one row per send-completing call
  instance. Attributed to the sender's completing call (callpath_id, location_id).
diagnosis: See mpi_latereceiver.
---#}
with messages as (
    select * from {{ ref('messages') }}
),

experiments as (
    select * from {{ ref('experiments') }}
),

waits as (
    select
        m.send_complete_call_callpath_id as callpath_id,
        m.send_location_id as location_id,
        m.send_complete_call_enter_time,
        m.recv_location_id,
        m.recv_seq,
        m.send_seq,
        (m.recv_post_call_enter_time::bigint - m.send_complete_call_enter_time::bigint)
            / x.timer_resolution as idle_s
    from messages as m
    cross join experiments as x
    where m.send_seq is not null and m.recv_seq is not null
        and m.send_complete_call_leave_time > m.recv_post_call_enter_time
)

select
    callpath_id,
    location_id,
    send_complete_call_enter_time,
    max(idle_s) as idle_s,
    arg_max(recv_location_id, idle_s) as recv_location_id,
    arg_max(recv_seq, idle_s) as recv_seq,
    arg_max(send_seq, idle_s) as send_seq,
    count(*) as messages
from waits
group by callpath_id, location_id, send_complete_call_enter_time
having max(idle_s) > 0
