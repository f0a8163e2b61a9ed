{#---
kind: category
parent: delay_omp
unit: s
sums: children
info: Short- and long-term delay costs of OpenMP barrier waits (Scalasca's delay_ompbarrier_aggregate).
description: |
  Scalasca 2.6 (remapping.spec, POSTDERIVED): delay_ompbarrier + delay_ompbarrier_longterm, per (call path,
  location) the sum of its sub-metrics.
---#}
