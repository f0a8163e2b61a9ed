{#---
kind: category
parent: bytes_p2p
unit: bytes
info: Bytes received in MPI point-to-point messages (Scalasca's bytes_rcvd).
description: |
  Scalasca's metric hierarchy (docs/wait-states.md, time hierarchy). At the
  receiving call. Its value in time_cube is the sum of its leaves and sub-metrics.
---#}
