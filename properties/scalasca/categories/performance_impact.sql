{#---
kind: category
parent: null
unit: s
sums: children
info: The time each activity costs the run, on and off the critical path (Scalasca's performance_impact).
description: |
  Scalasca 2.6 (remapping.spec, POSTDERIVED): performance_impact_criticalpath +
  non_critical_path_activities. Per (call path, location) the sum of its
  sub-metrics; over all locations the run's total time, split into what the
  critical path's activities, its imbalance, and the activities beside it cost.
---#}
