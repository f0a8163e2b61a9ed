{#---
kind: property
parent: comm_cost
unit: s
wait_state: true
same_as: mpi_latereceiver
requires: [trace]
confidence: 0.5 (medium - the trace cannot show that the send blocked)
info: Senders wait in MPI_Send because the matching MPI_Recv was posted later.
description: |
  CRE report §8 / ASL §3.4.1.10 LateReceiver over the matches of LateReceiver(r)
  (late_receiver_matches): IdleTime = SUM(idle_s) per send call path and location,
  and over all processes. CONDITION IdleTime > 0, CONFIDENCE 0.5 (medium),
  SEVERITY IdleTime / Duration(RankBasis, e).
diagnosis: |
  The receiver posts its receive late: post it earlier (MPI_Irecv), or use
  MPI_Isend so the sender can go on computing.
params:
  p_region: {default: null, type: VARCHAR, doc: "Focus region r of the pattern."}
---#}
{% import 'templates/asl.sql' as asl with context %}
{{ asl.sum_matches(ref('late_receiver_matches'), 'idle_s', confidence=0.5) }}
