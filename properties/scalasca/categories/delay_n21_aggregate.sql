{#---
kind: category
parent: delay_collective
unit: s
sums: children
info: Short- and long-term delay costs of N-to-1 waits (Scalasca's delay_n21_aggregate).
description: |
  Scalasca 2.6 (remapping.spec, POSTDERIVED): delay_n21 + delay_n21_longterm, per (call path,
  location) the sum of its sub-metrics.
---#}
