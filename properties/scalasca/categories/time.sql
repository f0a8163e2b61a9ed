{#---
kind: category
parent: null
unit: s
info: Total CPU allocation time, idle threads included (Scalasca's time).
description: |
  Scalasca's metric hierarchy (docs/wait-states.md, time hierarchy). The root of
  the time metrics: every location's time in every call path, plus the time OpenMP
  threads are reserved but idle (omp_idle_threads). Its value in time_cube is the sum of
  its leaves and sub-metrics.
---#}
