{#---
kind: property
parent: hpf_costs
unit: s
requires: [hpf_summary]
info: "Time in the inspector phase of an irregular HPF loop (ASL inspector_costs)."
description: |
  ASL §3.4.2.11 costs<inspector_time>: inspector_time of the region sums (hpf_summary: means over the processes executing the
  region; 0 where the input gives none, as hpf_costs reads it). CONDITION cost > 0, CONFIDENCE 1, SEVERITY cost / duration(RankBasis, e).
diagnosis: |
  Reuse the communication schedule of the inspector across executions of the loop.
---#}
{% import 'templates/asl_summary.sql' as summary with context %}
{{ summary.costs('hpf', 'coalesce(s.inspector_time, 0)') }}
