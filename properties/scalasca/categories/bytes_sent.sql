{#---
kind: category
parent: bytes_p2p
unit: bytes
info: Bytes sent in MPI point-to-point messages (Scalasca's bytes_sent).
description: |
  Scalasca's metric hierarchy (docs/wait-states.md, time hierarchy). At the sending
  call. Its value in time_cube is the sum of its leaves and sub-metrics.
---#}
