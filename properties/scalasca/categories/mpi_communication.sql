{#---
kind: category
parent: mpi
unit: s
info: Time in MPI communication (Scalasca's mpi_communication).
description: |
  Scalasca's metric hierarchy (docs/wait-states.md, time hierarchy). Point-to-
  point, collective and one-sided communication calls. Its value in time_cube is the sum
  of its leaves and sub-metrics.
---#}
