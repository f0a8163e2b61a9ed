{#---
kind: property
parent: performance_impact_criticalpath
unit: s
requires: [trace]
problem: false
info: Waiting time the critical path's imbalance causes, charged to the call paths on the path (Scalasca's critical_imbalance_impact).
description: |
  Scalasca 2.6 (CriticalPath.pattern, CRITICAL_IMBALANCE_IMPACT): the
  imbalance_impact_s of critical_imbalance_costs: every location's waiting time, spread
  over the call paths where it spent less time than the critical path, summed per call
  path and charged to the path's locations by their share of the path's time there.
  CONDITION value > 0, CONFIDENCE 1, SEVERITY value / Duration(RankBasis, e).
diagnosis: |
  Activities on the critical path that other locations do not match: balancing them
  (or moving them off the path) removes the waiting they cause.
---#}
{% import 'templates/asl.sql' as asl with context %}
{{ asl.sum_matches('(select callpath_id, location_id, imbalance_impact_s from '
                   ~ ref('critical_imbalance_costs') ~ ' where imbalance_impact_s is not null)', 'imbalance_impact_s') }}
