{#---
kind: category
parent: mpi_communication
unit: s
info: Time in MPI one-sided communication (Scalasca's mpi_rma_communication).
description: |
  Scalasca's metric hierarchy (docs/wait-states.md, time hierarchy). MPI_Put,
  MPI_Get, MPI_Accumulate, window synchronisation, ... (not window management). Its
  value in time_cube is the sum of its leaves and sub-metrics.
---#}
