{#---
kind: property
parent: null
unit: s
requires: [openmp_summary]
info: "Measured parallelisation overhead of an OpenMP region (ASL measurable_costs)."
description: |
  ASL §3.4.3.5 costs<par_costs>: non_parallelized_code + sync + remote_access_time +
  scheduling + additional_calc of the region sums (sync = region_wait + region_ctrl +
  cross_thread_dep_wait + cross_thread_dep_ctrl; remote_access_time = nr_remote_accesses
  x the machine constant remote_access_time; missing fields count 0). CONDITION cost > 0,
  CONFIDENCE 1, SEVERITY cost / duration(RankBasis, e).
diagnosis: |
  Look at the specialisations (synchronization, load_imbalance, remote_accesses, non_parallelized_code).
---#}
{% import 'templates/asl_summary.sql' as summary with context %}
{{ summary.costs('openmp', summary.measurable()) }}
