{#---
kind: category
parent: delay
unit: s
sums: children
info: Delay costs of MPI wait states (Scalasca's delay_mpi).
description: |
  Scalasca 2.6 (remapping.spec, POSTDERIVED): delay_p2p + delay_collective, per (call path,
  location) the sum of its sub-metrics.
---#}
