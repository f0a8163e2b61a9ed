{#---
kind: property
parent: omp_time
unit: s
timeline: omp_fork_join_timeline
wait_state: true
requires: [trace, openmp]
info: Time OpenMP threads spend being forked into and joined from parallel regions (Scalasca's omp_management).
description: |
  Scalasca, omp_management: fork_s + join_s of omp_fork_join per (parallel-region call
  path, thread) and over all threads. CONDITION value > 0, CONFIDENCE 1, SEVERITY
  value / Duration(RankBasis, e).
diagnosis: |
  Thread-team management costs time each time a parallel region runs: merge small
  parallel regions, or use fewer threads for short ones (num_threads / if clauses).
---#}
{% import 'templates/asl.sql' as asl with context %}
{{ asl.sum_matches('(select callpath_id, location_id, fork_s + join_s as idle_s from ' ~ ref('omp_fork_join') ~ ')',
                   'idle_s') }}
