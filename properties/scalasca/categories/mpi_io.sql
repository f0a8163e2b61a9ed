{#---
kind: category
parent: mpi
unit: s
info: Time in MPI file I/O (Scalasca's mpi_io).
description: |
  Scalasca's metric hierarchy (docs/wait-states.md, time hierarchy). MPI-IO calls
  other than file management. Its value in time_cube is the sum of its leaves and sub-
  metrics.
---#}
