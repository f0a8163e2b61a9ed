{#---
kind: category
parent: omp_synchronization
unit: s
info: Time in OpenMP ordered constructs (Scalasca's omp_ordered).
description: |
  Scalasca's metric hierarchy (docs/wait-states.md, time hierarchy). The runtime's
  part of ordered regions. Its value in time_cube is the sum of its leaves and sub-
  metrics.
---#}
