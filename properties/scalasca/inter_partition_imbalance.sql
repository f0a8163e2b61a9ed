{#---
kind: property
parent: critical_imbalance_impact
unit: s
requires: [trace]
problem: false
info: The part of the critical path's imbalance from call paths some locations never execute (Scalasca's inter_partition_imbalance).
description: |
  Scalasca 2.6 (CriticalPath.pattern, INTER_PARTITION_IMBALANCE): the
  inter_partition_s of critical_imbalance_costs: the waiting of locations that do not
  execute a call path on the critical path at all (different roles: partitions),
  charged to the path's locations by their share. CONDITION value > 0, CONFIDENCE 1,
  SEVERITY value / Duration(RankBasis, e).
diagnosis: |
  Locations with different roles (master and workers, producers and consumers) wait
  for each other: rebalance the work between the roles.
---#}
{% import 'templates/asl.sql' as asl with context %}
{{ asl.sum_matches('(select callpath_id, location_id, inter_partition_s from '
                   ~ ref('critical_imbalance_costs') ~ ' where inter_partition_s is not null)', 'inter_partition_s') }}
