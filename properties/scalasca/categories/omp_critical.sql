{#---
kind: category
parent: omp_synchronization
unit: s
info: Time in OpenMP critical sections and atomics (Scalasca's omp_critical).
description: |
  Scalasca's metric hierarchy (docs/wait-states.md, time hierarchy). Entering and
  leaving critical sections (the runtime's part, not the protected code). Its value in
  time_cube is the sum of its leaves and sub-metrics.
---#}
