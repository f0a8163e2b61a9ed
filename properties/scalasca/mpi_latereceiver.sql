{#---
kind: property
parent: mpi_point2point
unit: s
timeline: mpi_latereceiver_timeline
wait_state: {class: latereceiver, label: Late Receiver}
requires: [trace]
info: Time senders wait for a receive that is posted late (Scalasca's mpi_latereceiver).
description: |
  docs/wait-states.md, mpi_latereceiver: SUM of the idle times of
  mpi_latereceiver_matches per (send-completing call path, location), and over all
  processes; agrees with Scalasca 2.6: only MPI_Send/MPI_Ssend and the MPI_Wait*
  completing an MPI_Isend count (not MPI_Sendrecv), and an MPI_Waitall/MPI_Waitsome
  only when none of the receives it completed waited for a late sender.
  CONDITION idle > 0, CONFIDENCE 1,
  SEVERITY idle / Duration(RankBasis, e).
diagnosis: |
  The receiving rank posts its receive late: post it earlier (MPI_Irecv ahead of the
  work), or send with MPI_Isend and complete the send later.
---#}
{% import 'templates/asl.sql' as asl with context %}
{{ asl.sum_matches(ref('mpi_latereceiver_matches'), 'idle_s') }}
