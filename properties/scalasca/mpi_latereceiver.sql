{#---
kind: property
parent: null
unit: s
requires: [trace]
info: Time senders wait for a receive that is posted late (Scalasca's mpi_latereceiver).
description: |
  reference/wait-states.md, mpi_latereceiver: SUM of the idle times of
  mpi_latereceiver_matches per (send-completing call path, location), and over all
  processes; agrees with Scalasca 2.6. CONDITION idle > 0, CONFIDENCE 1,
  SEVERITY idle / Duration(RankBasis, e).
diagnosis: |
  The receiving rank posts its receive late: post it earlier (MPI_Irecv ahead of the
  work), or send with MPI_Isend and complete the send later.
---#}
{% import 'templates/asl.sql' as asl with context %}
{{ asl.sum_matches(ref('mpi_latereceiver_matches'), 'idle_s') }}
