{#---
kind: category
parent: syncs
unit: count
info: MPI collective synchronisations (Scalasca's syncs_coll).
description: |
  Scalasca's metric hierarchy (docs/wait-states.md, time hierarchy). Barrier calls.
  Its value in time_cube is the sum of its leaves and sub-metrics.
---#}
