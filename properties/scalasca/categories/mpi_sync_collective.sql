{#---
kind: category
parent: mpi_synchronization
unit: s
info: Time in MPI barriers (Scalasca's mpi_sync_collective).
description: |
  Scalasca's metric hierarchy (docs/wait-states.md, time hierarchy). Calls of
  MPI_Barrier (and other collectives that move no data). Its value in time_cube is the
  sum of its leaves and sub-metrics.
---#}
