{#---
kind: property
parent: hpf_costs
unit: s
requires: [hpf_summary]
info: "Synchronisation time of an HPF FORALL loop (ASL forall_synchronization_costs)."
description: |
  ASL §3.4.2.5: CONDITION the region is an HPFLoop with ltype FORALL AND sums.sync_time > 0;
  CONFIDENCE 1; SEVERITY sync_time / duration(RankBasis, e).
diagnosis: |
  The FORALL synchronises within or between its statements: restructure it (INDEPENDENT loop, fewer statements).
---#}
{% import 'templates/asl_summary.sql' as summary with context %}
{{ summary.costs('hpf', 's.sync_time', "s.kind = 'HPFLoop' and s.ltype = 'FORALL'") }}
