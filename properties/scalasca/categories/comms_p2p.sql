{#---
kind: category
parent: comms
unit: count
info: MPI point-to-point communications (Scalasca's comms_p2p).
description: |
  Scalasca's metric hierarchy (docs/wait-states.md, time hierarchy). Messages of
  more than zero bytes. Its value in time_cube is the sum of its leaves and sub-metrics.
---#}
