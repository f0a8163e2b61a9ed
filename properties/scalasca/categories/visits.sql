{#---
kind: category
parent: null
unit: count
info: Number of executions (Scalasca's visits).
description: |
  Scalasca's metric hierarchy (docs/wait-states.md, time hierarchy). How often each
  call path was entered on each location. Its value in time_cube is the sum of its
  leaves and sub-metrics.
---#}
