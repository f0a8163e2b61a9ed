{#---
kind: category
parent: mpi_io
unit: s
info: Time in individual MPI file I/O (Scalasca's mpi_io_individual).
description: |
  Scalasca's metric hierarchy (docs/wait-states.md, time hierarchy). MPI-IO calls
  of one process (not _all or _ordered). Its value in time_cube is the sum of its leaves
  and sub-metrics.
---#}
