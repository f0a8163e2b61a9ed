{#---
kind: category
parent: comms
unit: count
info: MPI collective communications (Scalasca's comms_coll).
description: |
  Scalasca's metric hierarchy (docs/wait-states.md, time hierarchy). Collective
  calls that move data. Its value in time_cube is the sum of its leaves and sub-metrics.
---#}
