{#---
kind: category
parent: syncs_p2p
unit: count
info: MPI zero-byte receives (Scalasca's syncs_recv).
description: |
  Scalasca's metric hierarchy (docs/wait-states.md, time hierarchy). At the
  receiving call. Its value in time_cube is the sum of its leaves and sub-metrics.
---#}
