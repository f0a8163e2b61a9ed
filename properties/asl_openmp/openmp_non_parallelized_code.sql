{#---
kind: property
parent: openmp_measurable_costs
unit: s
requires: [openmp_summary]
info: "Time an OpenMP region spends in code that runs on one thread only (ASL non_parallelized_code)."
description: |
  ASL §3.4.3.7 costs<non_parallel_code>: summary(r, e).sums.non_parallelized_code of the region sums (sm_summary). CONDITION cost > 0, CONFIDENCE 1,
  SEVERITY cost / duration(RankBasis, e).
diagnosis: |
  Serial code limits the speedup (Amdahl): parallelise it.
---#}
{% import 'templates/asl_summary.sql' as summary with context %}
{{ summary.costs('openmp', 'coalesce(s.non_parallelized_code, 0)') }}
