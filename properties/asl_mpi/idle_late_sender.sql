{#---
kind: property
parent: comm_cost
unit: s
wait_state: true
same_as: mpi_latesender
requires: [trace]
info: A receive call with idle time (ASL's profile-based LateSender).
description: |
  ASL §3.4.1.9 LateSender(FuncCall r): IdleTime = Summary(r, e).IdleTime
  (the pattern idle_time: the catalog's wait states).
  CONDITION the called function is a point-to-point receive (MPI_Recv, MPI_Mrecv,
  MPI_Sendrecv) AND IdleTime > 0, CONFIDENCE 1, SEVERITY IdleTime / Duration(RankBasis, e).
  Waits completed in MPI_Wait* belong to mpi_latesender, not to this property.
diagnosis: |
  The receiver waits for its sender: balance the work before the send, or
  post the receive early (MPI_Irecv) and complete it late.
---#}
{% import 'templates/asl.sql' as asl with context %}
{{ asl.idle_at_calls("p2p_type in ('recv', 'sendrecv')") }}
