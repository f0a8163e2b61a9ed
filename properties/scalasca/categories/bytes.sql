{#---
kind: category
parent: null
unit: bytes
info: Bytes moved by MPI communication (Scalasca's bytes).
description: |
  Scalasca's metric hierarchy (docs/wait-states.md, time hierarchy). Point-to-point
  and collective bytes. Its value in time_cube is the sum of its leaves and sub-metrics.
---#}
