{#---
kind: category
parent: omp_time
unit: s
info: Time in OpenMP synchronisation (Scalasca's omp_synchronization).
description: |
  Scalasca's metric hierarchy (docs/wait-states.md, time hierarchy). Barriers,
  critical sections, lock API calls, ordered regions and taskwait. Its value in
  time_cube is the sum of its leaves and sub-metrics.
---#}
