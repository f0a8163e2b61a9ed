{#---
kind: property
parent: openmp_measurable_costs
unit: s
requires: [openmp_summary]
info: "Synchronisation overhead of an OpenMP region (ASL synchronization)."
description: |
  ASL §3.4.3.8 costs<sync>: region_wait + region_ctrl + cross_thread_dep_wait + cross_thread_dep_ctrl of the region sums (sm_summary). CONDITION cost > 0, CONFIDENCE 1,
  SEVERITY cost / duration(RankBasis, e).
diagnosis: |
  Barriers, critical sections and locks cost time: load imbalance is a frequent cause (load_imbalance).
---#}
{% import 'templates/asl_summary.sql' as summary with context %}
{{ summary.costs('openmp', summary.sync()) }}
