{#---
kind: category
parent: time
unit: s
info: Time spent executing the program (Scalasca's execution).
description: |
  Scalasca's metric hierarchy (docs/wait-states.md, time hierarchy). Every
  location's time in every call path: computation, MPI and OpenMP. Its value in
  time_cube is the sum of its leaves and sub-metrics.
---#}
