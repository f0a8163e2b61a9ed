{#---
kind: property
parent: mpi_sync_collective
unit: s
timeline: mpi_collective_timeline
wait_state: {class: barrier, label: waiting in barriers}
requires: [trace]
info: Time ranks wait in MPI_Barrier for the last rank to arrive (Scalasca's mpi_barrier_wait).
description: |
  docs/wait-states.md, mpi_barrier_wait: min(latest B, X) - B per rank of an MPI_Barrier instance, when positive
  (mpi_collective_wait_matches), summed per (call path, location) and over all
  processes. CONDITION value > 0, CONFIDENCE 1, SEVERITY value / Duration(RankBasis, e).
diagnosis: |
  The work before the barrier is imbalanced: balance it, or remove the barrier if
  it is not needed for correctness.
---#}
{% import 'templates/scalasca.sql' as scalasca with context %}
{{ scalasca.collective_metric('mpi_barrier_wait') }}
