{#---
kind: property
parent: omp_critical
unit: s
timeline: omp_lock_timeline
wait_state: true
requires: [trace, openmp]
info: Time lost waiting to enter an OpenMP critical section (or atomic) while another thread is inside (Scalasca's omp_lock_contention_critical).
description: |
  Scalasca, omp_lock_contention_critical: wait_s of omp_lock_waits for acquisitions in
  calls of class $p_lock_class, per (call path, thread) and over all threads.
  CONDITION value > 0, CONFIDENCE 1, SEVERITY value / Duration(RankBasis, e).
diagnosis: |
  Threads queue for the same lock: shorten the protected code, use finer-grained
  locks or atomics, or stagger the threads' arrival.
params:
  p_lock_class: {default: critical, type: VARCHAR, doc: "region_classes.omp_class of the acquiring call: critical or lock_api."}
---#}
{% import 'templates/asl.sql' as asl with context %}
{{ asl.sum_matches('(select * from ' ~ ref('omp_lock_waits') ~ ' where omp_class = $p_lock_class and wait_s > 0)',
                   'wait_s') }}
