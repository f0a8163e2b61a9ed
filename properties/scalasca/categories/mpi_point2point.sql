{#---
kind: category
parent: mpi_communication
unit: s
info: Time in MPI point-to-point communication (Scalasca's mpi_point2point).
description: |
  Scalasca's metric hierarchy (docs/wait-states.md, time hierarchy). Sends,
  receives and the calls completing them (MPI_Wait*, MPI_Test*). Its value in time_cube
  is the sum of its leaves and sub-metrics.
---#}
