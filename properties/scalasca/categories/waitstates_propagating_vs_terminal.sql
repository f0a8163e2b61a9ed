{#---
kind: category
parent: null
unit: s
sums: children
info: Point-to-point waiting split into the part that caused further waiting and the part that did not (Scalasca's waitstates_propagating_vs_terminal).
description: |
  Scalasca 2.6 (remapping.spec, POSTDERIVED): mpi_wait_propagating + mpi_wait_terminal, per (call path,
  location) the sum of its sub-metrics.
---#}
