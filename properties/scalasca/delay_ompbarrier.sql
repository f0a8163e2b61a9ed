{#---
kind: property
parent: delay_ompbarrier_aggregate
unit: s
requires: [trace]
problem: false
info: Work that made a thread the last to reach an OpenMP barrier, charged where it happened (Scalasca's delay_ompbarrier).
description: |
  Scalasca 2.6 (Delay.OMP.pattern, OmpDelayOps.cpp: CalculateOmpBarrierDelay): the
  delay_ompbarrier rows of root_cause_matches: for every thread that waited at an
  OpenMP barrier (resolution class ompbarrier), the delay of each call path on the
  thread that entered last, since each thread's previous OpenMP point, times
  wait_s / denominator_s (uncapped), at that call path and thread; summed per (call path, location) and over all processes. CONDITION
  value > 0, CONFIDENCE 1, SEVERITY value / Duration(RankBasis, e).
diagnosis: |
  This call path on this thread is why its team waited at the barrier: it ran
  longer here than on the other threads. Balance the loop's iterations (schedule)
  or the work before the barrier.
---#}
{% import 'templates/scalasca.sql' as scalasca with context %}
{{ scalasca.root_cause_metric('delay_ompbarrier') }}
