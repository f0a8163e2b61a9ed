{#---
kind: category
parent: execution
unit: s
info: Time in OpenMP runtime constructs (Scalasca's omp_time).
description: |
  Scalasca's metric hierarchy (docs/wait-states.md, time hierarchy). Thread
  management (fork and join), synchronisation (barriers, critical sections, locks,
  ordered, taskwait) and flushes. Its value in time_cube is the sum of its leaves and
  sub-metrics.
---#}
