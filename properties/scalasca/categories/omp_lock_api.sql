{#---
kind: category
parent: omp_synchronization
unit: s
info: Time in OpenMP lock API calls (Scalasca's omp_lock_api).
description: |
  Scalasca's metric hierarchy (docs/wait-states.md, time hierarchy). omp_set_lock,
  omp_unset_lock, ... Its value in time_cube is the sum of its leaves and sub-metrics.
---#}
