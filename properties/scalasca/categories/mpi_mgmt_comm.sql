{#---
kind: category
parent: mpi_management
unit: s
info: Time in MPI communicator management (Scalasca's mpi_mgmt_comm).
description: |
  Scalasca's metric hierarchy (docs/wait-states.md, time hierarchy). MPI management
  calls other than initialisation, finalisation, file and window management (MPI_Comm_*,
  MPI_Cart_*, MPI_Group_*, ...). Its value in time_cube is the sum of its leaves and
  sub-metrics.
---#}
