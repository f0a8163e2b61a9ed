{#---
kind: category
parent: mpi_management
unit: s
info: Time in MPI file management (Scalasca's mpi_mgmt_file).
description: |
  Scalasca's metric hierarchy (docs/wait-states.md, time hierarchy). MPI-IO calls
  whose region role is FILE_IO_METADATA (MPI_File_open, _close, _set_view, ...). Its
  value in time_cube is the sum of its leaves and sub-metrics.
---#}
