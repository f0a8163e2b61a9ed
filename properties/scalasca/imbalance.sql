{#---
kind: property
parent: null
unit: s
requires: [trace]
info: Computation a location spends in a call path above or below the average (Scalasca's imbalance).
description: |
  Scalasca 2.6 (cube_remap2): |difference_s| of computation_imbalance where the
  location is compared and its comp differs from the average. CONDITION value > 0,
  CONFIDENCE 1, SEVERITY value / Duration(RankBasis, e).
diagnosis: |
  The work of this call path is unevenly spread: balance it across the locations.
---#}
{% import 'templates/asl.sql' as asl with context %}
{{ asl.sum_matches('(select callpath_id, location_id, abs(difference_s) as value from ' ~ ref('computation_imbalance')
                   ~ ' where compared and difference_s != 0)', 'value') }}
