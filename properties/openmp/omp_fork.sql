{#---
kind: property
parent: omp_management
unit: s
timeline: omp_fork_join_timeline
wait_state: true
requires: [trace, openmp]
info: Time from the fork of an OpenMP team until each thread enters the parallel region (Scalasca's omp_fork).
description: |
  Scalasca, omp_fork: fork_s of omp_fork_join, max(0, E(parallel) - fork) per thread,
  per (parallel-region call path, thread) and over all threads. CONDITION value > 0,
  CONFIDENCE 1, SEVERITY value / Duration(RankBasis, e).
diagnosis: |
  Creating or waking the team is slow: keep threads busy-waiting between regions
  (OMP_WAIT_POLICY=active) or merge parallel regions.
---#}
{% import 'templates/asl.sql' as asl with context %}
{{ asl.sum_matches(ref('omp_fork_join'), 'fork_s') }}
