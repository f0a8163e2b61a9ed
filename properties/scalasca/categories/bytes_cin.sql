{#---
kind: category
parent: bytes_coll
unit: bytes
info: Bytes incoming in MPI collectives (Scalasca's bytes_cin).
description: |
  Scalasca's metric hierarchy (docs/wait-states.md, time hierarchy).
  MpiCollectiveEnd's bytes received. Its value in time_cube is the sum of its leaves and
  sub-metrics.
---#}
