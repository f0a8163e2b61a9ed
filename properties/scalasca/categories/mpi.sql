{#---
kind: category
parent: execution
unit: s
info: Time spent in MPI calls (Scalasca's mpi).
description: |
  Scalasca's metric hierarchy (docs/wait-states.md, time hierarchy). The exclusive
  time of every MPI call. Its value in time_cube is the sum of its leaves and sub-
  metrics.
---#}
