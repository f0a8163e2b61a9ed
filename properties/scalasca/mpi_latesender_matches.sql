{#---
kind: pattern
parent: receive_matches
unit: s
requires: [trace]
info: Scalasca Late Sender instances - one per receive-completing call that waited for a later send.
description: |
  reference/wait-states.md, mpi_latesender: for a message with send event S and receive
  event R, idle = min(E(S), L(R)) - E(R), where E(R)/L(R) are the Enter/Leave of the
  call completing the receive (MPI_Recv, MPI_Wait*, ...) and E(S) the Enter of the
  call holding the send. Counted when > 0 (a clock-condition violation gives <= 0 and
  is never negative); not counted when the receive completes in MPI_Test*. A call
  completing several messages (MPI_Waitall/any/some) counts only its largest idle,
  once: one row per completing call instance, idle_s = max over its messages.
  Attributed to the receiver's completing call (callpath_id, location_id).
diagnosis: See mpi_latesender.
---#}
{% import 'templates/scalasca.sql' as scalasca %}
with receive_matches as (
    select * from {{ ref('receive_matches') }}
),

experiments as (
    select * from {{ ref('experiments') }}
),

waits as (
    select
        m.callpath_id,
        m.location_id,
        m.recv_call_enter_seq,
        m.recv_call,
        m.send_location_id,
        m.send_seq,
        m.send_time,
        m.recv_seq,
        (least(m.send_call_enter_time, m.recv_call_leave_time)::bigint - m.recv_call_enter_time::bigint)
            / x.timer_resolution as idle_s
    from receive_matches as m
    cross join experiments as x
    where m.recv_call not like 'MPI\_Test%' escape '\'
)

{{ scalasca.largest_wait_per_call('waits', 'recv_call_enter_seq',
                                   ['recv_call', 'send_location_id', 'send_seq', 'send_time', 'recv_seq']) }}
