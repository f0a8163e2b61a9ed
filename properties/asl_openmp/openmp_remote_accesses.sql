{#---
kind: property
parent: openmp_measurable_costs
unit: s
requires: [openmp_summary, remote_access_time]
info: "Estimated time of the remote (ccNUMA) memory accesses of an OpenMP region (ASL remote_accesses)."
description: |
  ASL §3.4.3.11 costs<remote_access_time>: nr_remote_accesses x the machine constant remote_access_time of the region sums (sm_summary; 0
  accesses where the input gives none, as openmp_measurable_costs reads them). CONDITION cost > 0, CONFIDENCE 1,
  SEVERITY cost / duration(RankBasis, e).
diagnosis: |
  Threads access memory of other nodes: place data where it is used (first touch, page migration).
---#}
{% import 'templates/asl_summary.sql' as summary with context %}
{{ summary.costs('openmp', 'coalesce(s.nr_remote_accesses, 0) * ' ~ summary.constant('remote_access_time')) }}
