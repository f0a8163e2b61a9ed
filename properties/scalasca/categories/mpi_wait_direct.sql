{#---
kind: category
parent: waitstates_direct_vs_indirect
unit: s
sums: children
info: Point-to-point waiting caused by the partner's work (Scalasca's mpi_wait_direct).
description: |
  Scalasca 2.6 (remapping.spec, POSTDERIVED): mpi_wait_direct_latesender + mpi_wait_direct_latereceiver, per (call path,
  location) the sum of its sub-metrics.
---#}
