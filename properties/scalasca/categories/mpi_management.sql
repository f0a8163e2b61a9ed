{#---
kind: category
parent: mpi
unit: s
info: Time in MPI management calls (Scalasca's mpi_management).
description: |
  Scalasca's metric hierarchy (docs/wait-states.md, time hierarchy).
  MPI_Init(_thread), MPI_Finalize, communicator, file and window management. Its value
  in time_cube is the sum of its leaves and sub-metrics.
---#}
