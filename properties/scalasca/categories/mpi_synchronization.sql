{#---
kind: category
parent: mpi
unit: s
info: Time in MPI synchronisation (Scalasca's mpi_synchronization).
description: |
  Scalasca's metric hierarchy (docs/wait-states.md, time hierarchy). MPI calls that
  only synchronise (barriers). Its value in time_cube is the sum of its leaves and sub-
  metrics.
---#}
