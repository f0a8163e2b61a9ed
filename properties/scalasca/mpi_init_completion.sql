{#---
kind: property
parent: mpi_init_exit
unit: s
timeline: mpi_collective_timeline
wait_state: {completion: true}
requires: [trace]
info: Time ranks need to finish MPI_Init after the first rank finished (Scalasca's mpi_init_completion).
description: |
  docs/wait-states.md, mpi_init_completion: L - max(min L, min(max E, L)) per rank's MPI_Init(_thread), when positive
  (mpi_collective_wait_matches), summed per (call path, location) and over all
  processes. CONDITION value > 0, CONFIDENCE 1, SEVERITY value / Duration(RankBasis, e).
diagnosis: |
  Start-up skew of the MPI library or the job launcher; usually not the code's.
---#}
{% import 'templates/scalasca.sql' as scalasca with context %}
{{ scalasca.collective_metric('mpi_init_completion') }}
