{#---
kind: property
parent: null
unit: s
requires: [trace]
info: Time ranks wait in MPI_Barrier for the last rank to arrive (Scalasca's mpi_barrier_wait).
description: |
  reference/wait-states.md, mpi_barrier_wait: SUM of the idle times of
  mpi_barrier_wait_matches per (barrier call path, location), and over all processes.
  CONDITION idle > 0, CONFIDENCE 1, SEVERITY idle / Duration(RankBasis, e).
diagnosis: |
  The work before the barrier is imbalanced: balance it, or remove the barrier if
  it is not needed for correctness.
---#}
{% import 'templates/asl.sql' as asl with context %}
{{ asl.sum_matches(ref('mpi_barrier_wait_matches'), 'idle_s') }}
