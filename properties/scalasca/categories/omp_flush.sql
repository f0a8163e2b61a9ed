{#---
kind: category
parent: omp_time
unit: s
info: Time in OpenMP flushes (Scalasca's omp_flush).
description: |
  Scalasca's metric hierarchy (docs/wait-states.md, time hierarchy). #pragma omp
  flush. Its value in time_cube is the sum of its leaves and sub-metrics.
---#}
