{#---
kind: category
parent: comms_coll
unit: count
info: MPI collective exchanges (Scalasca's comms_cxch).
description: |
  Scalasca's metric hierarchy (docs/wait-states.md, time hierarchy). Collective
  calls that send and receive bytes. Its value in time_cube is the sum of its leaves and
  sub-metrics.
---#}
