{#---
kind: category
parent: syncs
unit: count
info: MPI point-to-point synchronisations (Scalasca's syncs_p2p).
description: |
  Scalasca's metric hierarchy (docs/wait-states.md, time hierarchy). Zero-byte
  messages. Its value in time_cube is the sum of its leaves and sub-metrics.
---#}
