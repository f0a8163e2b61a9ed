{#---
kind: property
parent: openmp_synchronization
unit: s
requires: [openmp_summary]
info: "Threads wait at the entry or exit barrier of an OpenMP region (ASL load_imbalance)."
description: |
  ASL §3.4.3.10 costs<load_imb_cost>: summary(r, e).sums.region_wait, the wait at the entry and exit barriers of the region sums (sm_summary). CONDITION cost > 0, CONFIDENCE 1,
  SEVERITY cost / duration(RankBasis, e).
diagnosis: |
  Work is unevenly distributed over the threads: use a schedule clause or balance the iterations.
---#}
{% import 'templates/asl_summary.sql' as summary with context %}
{{ summary.costs('openmp', 'coalesce(s.region_wait, 0)') }}
