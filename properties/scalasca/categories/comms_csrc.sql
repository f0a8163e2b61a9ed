{#---
kind: category
parent: comms_coll
unit: count
info: MPI collective communications as source (Scalasca's comms_csrc).
description: |
  Scalasca's metric hierarchy (docs/wait-states.md, time hierarchy). Collective
  calls that only send bytes. Its value in time_cube is the sum of its leaves and sub-
  metrics.
---#}
