{#---
kind: property
parent: imbalance_below
unit: s
requires: [trace]
problem: false
info: A call path a location does not execute, at its average (Scalasca's imbalance_below_bypass).
description: |
  Scalasca 2.6 (cube_remap2): average_s of computation_imbalance on every location
  that never executed the call path (by_visits). CONDITION value > 0, CONFIDENCE 1,
  SEVERITY value / Duration(RankBasis, e).
diagnosis: |
  Some locations skip this work entirely: they wait for those that do it.
---#}
{% import 'templates/asl.sql' as asl with context %}
{{ asl.sum_matches('(select callpath_id, location_id, average_s as value from ' ~ ref('computation_imbalance')
                   ~ ' where by_visits and visits = 0)', 'value') }}
