{#---
kind: category
parent: performance_impact
unit: s
sums: children
info: The time the critical path's activities and their imbalance cost (Scalasca's performance_impact_criticalpath).
description: |
  Scalasca 2.6 (remapping.spec, POSTDERIVED): critical_path_activities +
  critical_imbalance_impact, per (call path, location) the sum of its sub-metrics.
---#}
