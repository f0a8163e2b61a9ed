{#---
kind: category
parent: bytes_coll
unit: bytes
info: Bytes outgoing in MPI collectives (Scalasca's bytes_cout).
description: |
  Scalasca's metric hierarchy (docs/wait-states.md, time hierarchy).
  MpiCollectiveEnd's bytes sent. Its value in time_cube is the sum of its leaves and
  sub-metrics.
---#}
