{#---
kind: property
parent: time
unit: s
timeline: omp_idle_threads_timeline
wait_state: {class: ompidle, label: idle OpenMP threads}
requires: [trace, openmp]
info: CPU time reserved for OpenMP threads that they do not use (Scalasca's omp_idle_threads).
description: |
  Scalasca, omp_idle_threads: idle_s of omp_idle_time (threads idle while the master
  runs serially, and threads left out of smaller teams), per (call path, thread) and
  over all threads. CONDITION value > 0, CONFIDENCE 1, SEVERITY value /
  Duration(RankBasis, e) (the idle time is not part of the threads' measured time).
diagnosis: |
  Serial code between parallel regions keeps the other threads idle (Amdahl's law):
  parallelise it, or run with fewer threads per process.
---#}
{% import 'templates/asl.sql' as asl with context %}
{{ asl.sum_matches(ref('omp_idle_time'), 'idle_s') }}
