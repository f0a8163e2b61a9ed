{#---
kind: category
parent: omp_barrier
unit: s
info: Time in implicit OpenMP barriers (Scalasca's omp_ibarrier).
description: |
  Scalasca's metric hierarchy (docs/wait-states.md, time hierarchy). The barriers
  at the end of parallel regions, loops, sections and single constructs. Its value in
  time_cube is the sum of its leaves and sub-metrics.
---#}
