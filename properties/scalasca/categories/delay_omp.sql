{#---
kind: category
parent: delay
unit: s
sums: children
info: Delay costs of OpenMP waiting and idle threads (Scalasca's delay_omp).
description: |
  Scalasca 2.6 (remapping.spec, POSTDERIVED): delay_ompbarrier_aggregate + delay_ompidle_aggregate, per (call path,
  location) the sum of its sub-metrics.
---#}
