{#---
kind: property
parent: critical_imbalance_impact
unit: s
requires: [trace]
problem: false
info: The part of the critical path's imbalance among locations that execute the same call paths (Scalasca's intra_partition_imbalance).
description: |
  Scalasca 2.6 (remapping.spec, POSTDERIVED): critical_imbalance_impact -
  inter_partition_imbalance per (call path, location), from
  critical_imbalance_costs (a missing value is 0; the difference may be a rounding
  residue below 0). CONDITION value > 0, CONFIDENCE 1, SEVERITY value /
  Duration(RankBasis, e).
diagnosis: |
  Locations doing the same work at different speeds: balance the work among them.
---#}
{% import 'templates/asl.sql' as asl with context %}
{{ asl.sum_matches('(select callpath_id, location_id, coalesce(imbalance_impact_s, 0)'
                   ~ ' - coalesce(inter_partition_s, 0) as value from ' ~ ref('critical_imbalance_costs')
                   ~ ' where coalesce(imbalance_impact_s, 0) - coalesce(inter_partition_s, 0) != 0)', 'value') }}
