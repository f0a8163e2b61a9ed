{#---
kind: property
parent: mpi_init_exit
unit: s
timeline: mpi_collective_timeline
wait_state: true
requires: [trace]
info: Time ranks wait in MPI_Finalize for the last rank to arrive (Scalasca's mpi_finalize_wait).
description: |
  docs/wait-states.md, mpi_finalize_wait: min(max E, L) - E per rank's MPI_Finalize, when positive
  (mpi_collective_wait_matches), summed per (call path, location) and over all
  processes. CONDITION value > 0, CONFIDENCE 1, SEVERITY value / Duration(RankBasis, e).
diagnosis: |
  The ranks finish their work at different times: balance the last phase.
---#}
{% import 'templates/scalasca.sql' as scalasca with context %}
{{ scalasca.collective_metric('mpi_finalize_wait') }}
