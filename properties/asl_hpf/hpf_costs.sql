{#---
kind: property
parent: null
unit: s
requires: [hpf_summary]
info: "Parallel overhead of an HPF region: communication, synchronisation, compiler overhead and I/O (ASL HPF costs)."
description: |
  ASL §3.4.2.3 costs<par_costs>: comm_time + sync_time + compiler_ovh_time + io_time of the region sums (hpf_summary: means over the processes executing the
  region). CONDITION cost > 0, CONFIDENCE 1, SEVERITY cost / duration(RankBasis, e).
diagnosis: |
  Look at the specialisations to see which part dominates.
---#}
{% import 'templates/asl_summary.sql' as summary with context %}
{{ summary.costs('hpf', 'coalesce(s.comm_time, 0) + coalesce(s.sync_time, 0)'
                        ~ ' + coalesce(s.compiler_ovh_time, 0) + coalesce(s.io_time, 0)') }}
