{#---
kind: category
parent: comms_coll
unit: count
info: MPI collective communications as destination (Scalasca's comms_cdst).
description: |
  Scalasca's metric hierarchy (docs/wait-states.md, time hierarchy). Collective
  calls that only receive bytes. Its value in time_cube is the sum of its leaves and
  sub-metrics.
---#}
