{#---
kind: property
parent: comm_cost
unit: s
wait_state: true
same_as: mpi_latesender
requires: [trace]
info: Receivers wait in MPI_Recv because the matching MPI_Send started later.
description: |
  CRE report §8 / ASL §3.4.1.9 LateSender over the matches of the pattern
  LateSender(r) (late_sender_matches): IdleTime = SUM(idle_s) per receive call path
  and location, and over all processes. CONDITION IdleTime > 0, CONFIDENCE 1,
  SEVERITY IdleTime / Duration(RankBasis, e).
diagnosis: |
  The sender reaches its send late: balance the work before the send, post the
  receive later (MPI_Irecv + MPI_Wait just before the data is needed), or send earlier.
params:
  p_region: {default: null, type: VARCHAR, doc: "Focus region r of the pattern."}
---#}
{% import 'templates/asl.sql' as asl with context %}
{{ asl.sum_matches(ref('late_sender_matches'), 'idle_s') }}
