{#---
kind: property
parent: imbalance_above
unit: s
requires: [trace]
problem: false
info: A call path only one location executes, at the average times the other locations (Scalasca's imbalance_above_single).
description: |
  Scalasca 2.6 (cube_remap2): average_s * (locations - 1) of computation_imbalance on
  the only location that executed the call path (by_visits). CONDITION value > 0,
  CONFIDENCE 1, SEVERITY value / Duration(RankBasis, e).
diagnosis: |
  A single location does this work while the others wait: distribute it.
---#}
{% import 'templates/asl.sql' as asl with context %}
{{ asl.sum_matches('(select callpath_id, location_id, average_s * (locations - 1) as value from '
                   ~ ref('computation_imbalance') ~ ' where by_visits and visitors = 1 and visits != 0)', 'value') }}
