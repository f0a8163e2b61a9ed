{#---
kind: category
parent: waitstates_propagating_vs_terminal
unit: s
sums: children
info: Point-to-point waiting that caused further waiting (Scalasca's mpi_wait_propagating).
description: |
  Scalasca 2.6 (remapping.spec, POSTDERIVED): mpi_wait_propagating_ls + mpi_wait_propagating_lr, per (call path,
  location) the sum of its sub-metrics.
---#}
