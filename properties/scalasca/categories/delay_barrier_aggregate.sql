{#---
kind: category
parent: delay_collective
unit: s
sums: children
info: Short- and long-term delay costs of barrier waits (Scalasca's delay_barrier_aggregate).
description: |
  Scalasca 2.6 (remapping.spec, POSTDERIVED): delay_barrier + delay_barrier_longterm, per (call path,
  location) the sum of its sub-metrics.
---#}
