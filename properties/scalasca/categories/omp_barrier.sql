{#---
kind: category
parent: omp_synchronization
unit: s
info: Time in OpenMP barriers (Scalasca's omp_barrier).
description: |
  Scalasca's metric hierarchy (docs/wait-states.md, time hierarchy). Explicit and
  implicit barriers. Its value in time_cube is the sum of its leaves and sub-metrics.
---#}
