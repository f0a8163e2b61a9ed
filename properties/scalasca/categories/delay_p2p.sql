{#---
kind: category
parent: delay_mpi
unit: s
sums: children
info: Delay costs of point-to-point wait states (Scalasca's delay_p2p).
description: |
  Scalasca 2.6 (remapping.spec, POSTDERIVED): delay_latesender_aggregate + delay_latereceiver_aggregate, per (call path,
  location) the sum of its sub-metrics.
---#}
