{#---
kind: property
parent: performance_impact
unit: s
requires: [trace]
problem: false
info: Time a location spends in a call path beyond the critical path's time there (Scalasca's non_critical_path_activities).
description: |
  Scalasca 2.6 (CriticalPath.pattern, NON_CRITICAL_PATH_ACTIVITIES): local_s -
  path_s of critical_path_profile where positive: the location's time in the call
  path without waiting, beyond what the critical path spends there. CONDITION value >
  0, CONFIDENCE 1, SEVERITY value / Duration(RankBasis, e).
diagnosis: |
  Work off the critical path: making it faster does not shorten the run, it only
  lengthens the waits of the location.
---#}
{% import 'templates/asl.sql' as asl with context %}
{{ asl.sum_matches('(select callpath_id, location_id, local_s - path_s as value from '
                   ~ ref('critical_path_profile') ~ ' where local_s - path_s > 0)', 'value') }}
