{#---
kind: category
parent: bytes
unit: bytes
info: Bytes of MPI collectives (Scalasca's bytes_coll).
description: |
  Scalasca's metric hierarchy (docs/wait-states.md, time hierarchy). Outgoing and
  incoming. Its value in time_cube is the sum of its leaves and sub-metrics.
---#}
