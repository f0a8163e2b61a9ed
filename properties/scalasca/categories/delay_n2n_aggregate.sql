{#---
kind: category
parent: delay_collective
unit: s
sums: children
info: Short- and long-term delay costs of N-to-N waits (Scalasca's delay_n2n_aggregate).
description: |
  Scalasca 2.6 (remapping.spec, POSTDERIVED): delay_n2n + delay_n2n_longterm, per (call path,
  location) the sum of its sub-metrics.
---#}
