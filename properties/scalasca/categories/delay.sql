{#---
kind: category
parent: null
unit: s
sums: children
info: The time that caused waiting elsewhere, charged to where it was spent (Scalasca's delay).
description: |
  Scalasca 2.6 (remapping.spec, POSTDERIVED): delay_mpi + delay_omp, per (call path,
  location) the sum of its sub-metrics.
---#}
