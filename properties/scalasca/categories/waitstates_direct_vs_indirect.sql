{#---
kind: category
parent: null
unit: s
sums: children
info: Point-to-point waiting split by its cause, the partner's work or the partner's own waiting (Scalasca's waitstates_direct_vs_indirect).
description: |
  Scalasca 2.6 (remapping.spec, POSTDERIVED): mpi_wait_direct + mpi_wait_indirect, per (call path,
  location) the sum of its sub-metrics.
---#}
