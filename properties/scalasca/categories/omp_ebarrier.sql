{#---
kind: category
parent: omp_barrier
unit: s
info: Time in explicit OpenMP barriers (Scalasca's omp_ebarrier).
description: |
  Scalasca's metric hierarchy (docs/wait-states.md, time hierarchy). #pragma omp
  barrier. Its value in time_cube is the sum of its leaves and sub-metrics.
---#}
