{#---
kind: property
parent: mpi_sync_collective
unit: s
timeline: mpi_collective_timeline
wait_state: {completion: true}
requires: [trace]
info: Time ranks need to leave MPI_Barrier after the first rank left (Scalasca's mpi_barrier_completion).
description: |
  docs/wait-states.md, mpi_barrier_completion: X - max(earliest X, min(latest B, X)) per rank of an MPI_Barrier instance, when positive
  (mpi_collective_wait_matches), summed per (call path, location) and over all
  processes. CONDITION value > 0, CONFIDENCE 1, SEVERITY value / Duration(RankBasis, e).
diagnosis: |
  Usually small; a large value points at a slow barrier implementation or
  oversubscribed nodes.
---#}
{% import 'templates/scalasca.sql' as scalasca with context %}
{{ scalasca.collective_metric('mpi_barrier_completion') }}
