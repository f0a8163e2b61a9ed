{#---
kind: category
parent: omp_synchronization
unit: s
info: Time in OpenMP taskwait (Scalasca's omp_taskwait).
description: |
  Scalasca's metric hierarchy (docs/wait-states.md, time hierarchy). #pragma omp
  taskwait. Its value in time_cube is the sum of its leaves and sub-metrics.
---#}
