{#---
kind: category
parent: null
unit: count
info: Number of MPI synchronisations (Scalasca's syncs).
description: |
  Scalasca's metric hierarchy (docs/wait-states.md, time hierarchy). Zero-byte
  messages and barriers. Its value in time_cube is the sum of its leaves and sub-
  metrics.
---#}
