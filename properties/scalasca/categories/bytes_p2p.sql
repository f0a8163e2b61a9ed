{#---
kind: category
parent: bytes
unit: bytes
info: Bytes of MPI point-to-point messages (Scalasca's bytes_p2p).
description: |
  Scalasca's metric hierarchy (docs/wait-states.md, time hierarchy). Sent and
  received. Its value in time_cube is the sum of its leaves and sub-metrics.
---#}
