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
{% import 'templates/scalasca.sql' as scalasca %}
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
        m.send_complete_call_enter_seq,
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

{{ scalasca.largest_wait_per_call('waits', 'send_complete_call_enter_seq',
                                   ['recv_location_id', 'recv_seq', 'send_seq']) }}
