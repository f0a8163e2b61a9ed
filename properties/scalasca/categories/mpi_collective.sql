{#---
kind: category
parent: mpi_communication
unit: s
info: Time in MPI collective communication (Scalasca's mpi_collective).
description: |
  Scalasca's metric hierarchy (docs/wait-states.md, time hierarchy). Collective
  calls that move data (everything but barriers). Its value in time_cube is the sum of
  its leaves and sub-metrics.
---#}
