{#---
kind: property
parent: mpi_latesender
unit: s
wait_state: true
requires: [trace]
info: Late Sender time caused by messages received in the wrong order (Scalasca's mpi_latesender_wo).
description: |
  docs/wait-states.md, mpi_latesender_wo: SUM of the idle times of
  mpi_latesender_wo_matches per (call path, location) of the waiting receive, and over
  all processes; a part of mpi_latesender. CONDITION idle > 0, CONFIDENCE 1,
  SEVERITY idle / Duration(RankBasis, e). Its sub-metrics mpi_lswo_same /
  mpi_lswo_different file every instance a receive reveals under the call path of
  the first instance that receive reveals (Scalasca 2.6 MPI.pattern: the
  ROLE_RECV_LSWO role is set once per receive event), so per call path they need
  not add up to it: the difference is Scalasca's exclusive mpi_latesender_wo
  (time_cube), zero over each location.
diagnosis: |
  A message that was sent earlier is received after the one being waited for:
  receive in send order, or complete the receives with MPI_Waitany/MPI_Waitsome.
---#}
{% import 'templates/asl.sql' as asl with context %}
{{ asl.sum_matches(ref('mpi_latesender_wo_matches'), 'idle_s') }}
