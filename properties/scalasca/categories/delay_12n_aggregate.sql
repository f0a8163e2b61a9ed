{#---
kind: category
parent: delay_collective
unit: s
sums: children
info: Short- and long-term delay costs of 1-to-N waits (Scalasca's delay_12n_aggregate).
description: |
  Scalasca 2.6 (remapping.spec, POSTDERIVED): delay_12n + delay_12n_longterm, per (call path,
  location) the sum of its sub-metrics.
---#}
