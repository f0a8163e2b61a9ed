{#---
kind: pattern
parent: null
unit: s
requires: [trace]
columns: {callpath_id: BIGINT, location_id: BIGINT, recv_call_enter_seq: BIGINT, idle_s: DOUBLE,
  recv_call: VARCHAR, send_location_id: BIGINT, send_seq: BIGINT, send_time: UBIGINT,
  recv_seq: BIGINT, messages: BIGINT}
info: Scalasca Late Sender instances - one per receive-completing call that waited for a later send.
description: |
  docs/wait-states.md, mpi_latesender: for a message with send event S and receive
  event R, idle = min(E(S), L(R)) - E(R), where E(R)/L(R) are the Enter/Leave of the
  call completing the receive (MPI_Recv, MPI_Wait*, ...) and E(S) the Enter of the
  call holding the send. Counted when > 0 (a clock-condition violation gives <= 0 and
  is never negative); not counted when the receive completes in MPI_Test*. A call
  completing several messages (MPI_Waitall/any/some) counts only its largest idle,
  once: one row per completing call instance, idle_s = max over its messages.
  Attributed to the receiver's completing call (callpath_id, location_id).
diagnosis: See mpi_latesender.
---#}
-- One definition: the rule is the view sql/mpi_latesender_waits.sql.
select * exclude (experiment_id) from {{ ref('mpi_latesender_waits') }}
