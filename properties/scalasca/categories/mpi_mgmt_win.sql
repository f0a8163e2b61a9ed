{#---
kind: category
parent: mpi_management
unit: s
info: Time in MPI window management (Scalasca's mpi_mgmt_win).
description: |
  Scalasca's metric hierarchy (docs/wait-states.md, time hierarchy).
  MPI_Win_create, _allocate, _free, _attach and _detach. Its value in time_cube is the
  sum of its leaves and sub-metrics.
---#}
