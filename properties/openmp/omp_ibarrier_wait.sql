{#---
kind: property
parent: omp_ibarrier
unit: s
timeline: omp_barrier_timeline
wait_state: {class: ompbarrier, label: waiting in OpenMP barriers}
requires: [trace, openmp]
info: Time threads wait in implicit OpenMP barriers for the last thread of the team (Scalasca's omp_ibarrier_wait).
description: |
  Scalasca, omp_ibarrier_wait: wait_s of omp_barrier_waits (latest Enter of the team at
  the barrier instance minus the thread's Enter) of the barriers of class
  $p_barrier_class, per (call path, thread) and over all threads. CONDITION value > 0,
  CONFIDENCE 1, SEVERITY value / Duration(RankBasis, e).
diagnosis: |
  The threads reach the barrier at different times: balance the work before it
  (a schedule clause for loops), or drop the barrier (nowait) where it is not needed.
params:
  p_barrier_class: {default: ibarrier, type: VARCHAR, doc: "region_classes.omp_class of the barriers: ibarrier (implicit) or ebarrier (explicit)."}
---#}
{% import 'templates/asl.sql' as asl with context %}
{{ asl.sum_matches('(select * from ' ~ ref('omp_barrier_waits') ~ ' where omp_class = $p_barrier_class and wait_s > 0)',
                   'wait_s') }}
