{#---
kind: property
parent: comm_cost
unit: s
wait_state: true
same_as: mpi_latereceiver
requires: [trace]
info: A blocking send call with idle time (ASL's profile-based LateReceiver).
description: |
  ASL §3.4.1.10 LateReceiver(FuncCall r): IdleTime = Summary(r, e).IdleTime
  (the pattern idle_time: the catalog's wait states).
  CONDITION the called function is a blocking point-to-point send (MPI_Send, MPI_Ssend,
  MPI_Bsend, MPI_Rsend) AND IdleTime > 0, CONFIDENCE 1,
  SEVERITY IdleTime / Duration(RankBasis, e).
diagnosis: |
  The sender waits for the receiver to post its receive: post receives earlier,
  or send non-blocking (MPI_Isend) and complete later.
---#}
{% import 'templates/asl.sql' as asl with context %}
{{ asl.idle_at_calls("p2p_type = 'send' and is_blocking") }}
