{#---
kind: category
parent: delay_omp
unit: s
sums: children
info: Short- and long-term delay costs of idle OpenMP threads (Scalasca's delay_ompidle_aggregate).
description: |
  Scalasca 2.6 (remapping.spec, POSTDERIVED): delay_ompidle + delay_ompidle_longterm, per (call path,
  location) the sum of its sub-metrics.
---#}
