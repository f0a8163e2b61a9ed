{#---
kind: property
parent: omp_idle_threads
unit: s
timeline: omp_idle_threads_timeline
wait_state: true
requires: [trace, openmp]
info: CPU time of threads left out of OpenMP teams smaller than the process (Scalasca's omp_limited_parallelism).
description: |
  Scalasca, omp_limited_parallelism: the 'limited' rows of omp_idle_time, fork to join
  of each parallel region forked with fewer threads than the process has, for each
  thread outside the team, per (call path, thread) and over all threads. CONDITION
  value > 0, CONFIDENCE 1, SEVERITY value / Duration(RankBasis, e).
diagnosis: |
  The region runs on part of the team (num_threads, if clause, too few iterations):
  give it more parallel work, or fewer threads to the process.
---#}
{% import 'templates/asl.sql' as asl with context %}
{{ asl.sum_matches('(select * from ' ~ ref('omp_idle_time') ~ " where kind = 'limited')", 'idle_s') }}
