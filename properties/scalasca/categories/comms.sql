{#---
kind: category
parent: null
unit: count
info: Number of MPI communications (Scalasca's comms).
description: |
  Scalasca's metric hierarchy (docs/wait-states.md, time hierarchy). Point-to-point
  messages and collective calls that move data. Its value in time_cube is the sum of its
  leaves and sub-metrics.
---#}
