{#---
kind: category
parent: waitstates_direct_vs_indirect
unit: s
sums: children
info: Point-to-point waiting caused by the partner's own waiting (Scalasca's mpi_wait_indirect).
description: |
  Scalasca 2.6 (remapping.spec, POSTDERIVED): mpi_wait_indirect_latesender + mpi_wait_indirect_latereceiver, per (call path,
  location) the sum of its sub-metrics.
---#}
