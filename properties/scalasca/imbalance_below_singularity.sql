{#---
kind: property
parent: imbalance_below_bypass
unit: s
requires: [trace]
problem: false
info: A call path only one location executes, at its average on each other location (Scalasca's imbalance_below_singularity).
description: |
  Scalasca 2.6 (cube_remap2): average_s of computation_imbalance on every location
  that did not execute a call path only one location executed (by_visits).
  CONDITION value > 0, CONFIDENCE 1, SEVERITY value / Duration(RankBasis, e).
diagnosis: |
  All but one location skip this work and wait for it: distribute it.
---#}
{% import 'templates/asl.sql' as asl with context %}
{{ asl.sum_matches('(select callpath_id, location_id, average_s as value from ' ~ ref('computation_imbalance')
                   ~ ' where by_visits and visitors = 1 and visits = 0)', 'value') }}
