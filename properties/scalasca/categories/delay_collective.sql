{#---
kind: category
parent: delay_mpi
unit: s
sums: children
info: Delay costs of collective wait states (Scalasca's delay_collective).
description: |
  Scalasca 2.6 (remapping.spec, POSTDERIVED): delay_barrier_aggregate + delay_n21_aggregate + delay_12n_aggregate + delay_n2n_aggregate, per (call path,
  location) the sum of its sub-metrics.
---#}
