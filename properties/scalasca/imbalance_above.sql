{#---
kind: property
parent: imbalance
unit: s
requires: [trace]
problem: false
info: Computation above the average of the call path (Scalasca's imbalance_above).
description: |
  Scalasca 2.6 (cube_remap2): difference_s of computation_imbalance where positive
  (the location is compared). CONDITION value > 0, CONFIDENCE 1, SEVERITY value /
  Duration(RankBasis, e).
diagnosis: |
  These locations carry more of the work than the others: give part of it away.
---#}
{% import 'templates/asl.sql' as asl with context %}
{{ asl.sum_matches('(select callpath_id, location_id, difference_s as value from ' ~ ref('computation_imbalance')
                   ~ ' where compared and difference_s > 0)', 'value') }}
