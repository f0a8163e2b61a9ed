{#---
kind: property
parent: hpf_costs
unit: s
requires: [hpf_summary]
info: "Input/output time of an HPF region (ASL io_costs)."
description: |
  ASL §3.4.2.6 costs<io_time>: io_time of the region sums (hpf_summary: means over the processes executing the
  region; 0 where the input gives none, as hpf_costs reads it). CONDITION cost > 0, CONFIDENCE 1, SEVERITY cost / duration(RankBasis, e).
diagnosis: |
  Reduce or overlap the I/O, or use parallel I/O.
---#}
{% import 'templates/asl_summary.sql' as summary with context %}
{{ summary.costs('hpf', 'coalesce(s.io_time, 0)') }}
