{#---
kind: category
parent: execution
unit: s
info: Time spent on computation (Scalasca's comp).
description: |
  Scalasca's metric hierarchy (docs/wait-states.md, time hierarchy). The exclusive
  time of every call path whose region is neither MPI nor an OpenMP synchronisation or
  management construct (OpenMP parallel regions and loops count as computation). Its
  value in time_cube is the sum of its leaves and sub-metrics.
---#}
