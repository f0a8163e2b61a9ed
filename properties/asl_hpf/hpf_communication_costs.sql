{#---
kind: property
parent: hpf_costs
unit: s
requires: [hpf_summary]
info: "Communication time of an HPF region (ASL communication_costs)."
description: |
  ASL §3.4.2.4 costs<comm_costs>: comm_time of the region sums (hpf_summary: means over the processes executing the
  region; 0 where the input gives none, as hpf_costs reads it). CONDITION cost > 0, CONFIDENCE 1, SEVERITY cost / duration(RankBasis, e).
diagnosis: |
  Align or distribute the arrays so that fewer elements move between processors.
---#}
{% import 'templates/asl_summary.sql' as summary with context %}
{{ summary.costs('hpf', 'coalesce(s.comm_time, 0)') }}
