{#---
kind: category
parent: mpi_io
unit: s
info: Time in collective MPI file I/O (Scalasca's mpi_io_collective).
description: |
  Scalasca's metric hierarchy (docs/wait-states.md, time hierarchy). MPI_File_*_all
  and MPI_File_*_ordered calls. Its value in time_cube is the sum of its leaves and sub-
  metrics.
---#}
