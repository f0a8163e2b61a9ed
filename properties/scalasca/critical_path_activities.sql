{#---
kind: property
parent: performance_impact_criticalpath
unit: s
requires: [trace]
problem: false
info: The part of the critical path's activities each location executed itself (Scalasca's critical_path_activities).
description: |
  Scalasca 2.6 (CriticalPath.pattern, CRITICAL_PATH_ACTIVITIES): for every call path
  on the critical path and every location, min(path_s, local_s) of
  critical_path_profile: the critical path's time in the call path, as far as the
  location spent that much time there without waiting. CONDITION value > 0,
  CONFIDENCE 1, SEVERITY value / Duration(RankBasis, e).
diagnosis: |
  Work every location does on the critical path: making it faster shortens the run.
---#}
{% import 'templates/asl.sql' as asl with context %}
{{ asl.sum_matches('(select callpath_id, location_id, least(path_s, local_s) as value from '
                   ~ ref('critical_path_profile') ~ ' where path_s > 0 and least(path_s, local_s) != 0)', 'value') }}
