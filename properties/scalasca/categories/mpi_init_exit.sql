{#---
kind: category
parent: mpi_management
unit: s
info: Time in MPI_Init(_thread) and MPI_Finalize (Scalasca's mpi_init_exit).
description: |
  Scalasca's metric hierarchy (docs/wait-states.md, time hierarchy). Calls to
  MPI_Init, MPI_Init_thread, MPI_Finalize, MPI_Initialized and MPI_Finalized. Its value
  in time_cube is the sum of its leaves and sub-metrics.
---#}
