{#---
kind: category
parent: syncs_p2p
unit: count
info: MPI zero-byte sends (Scalasca's syncs_send).
description: |
  Scalasca's metric hierarchy (docs/wait-states.md, time hierarchy). At the sending
  call. Its value in time_cube is the sum of its leaves and sub-metrics.
---#}
