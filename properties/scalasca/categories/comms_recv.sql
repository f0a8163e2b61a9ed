{#---
kind: category
parent: comms_p2p
unit: count
info: MPI point-to-point receives (Scalasca's comms_recv).
description: |
  Scalasca's metric hierarchy (docs/wait-states.md, time hierarchy). Messages of
  more than zero bytes, at the receiving call. Its value in time_cube is the sum of its
  leaves and sub-metrics.
---#}
