{#---
kind: category
parent: waitstates_propagating_vs_terminal
unit: s
sums: children
info: Point-to-point waiting that caused no further waiting (Scalasca's mpi_wait_terminal).
description: |
  Scalasca 2.6 (remapping.spec, POSTDERIVED): mpi_wait_terminal_ls + mpi_wait_terminal_lr, per (call path,
  location) the sum of its sub-metrics.
---#}
