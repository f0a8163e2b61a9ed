{#---
kind: pattern
parent: null
unit: s
info: Scalasca's metric hierarchy (reference/wait-states.md, time hierarchy) as rows.
description: |
  One row per metric: metric, parent (NULL for the roots time, visits, bytes, comms,
  syncs), unit (s, count or bytes) and source: 'category' for a metric that is the sum
  of its children (the leaf time categories take a call path's time by its region, see
  time_cube), 'property' for the wait-state metrics computed by the catalog entry of
  that name (a part of its parent's time), 'count' for the message and byte counts,
  'visits' for the number of executions. The rows are those of metric_tree in
  templates/scalasca.sql, which time_cube reads as well.
diagnosis: Not a problem; the structure of time_cube.
---#}
{% import 'templates/scalasca.sql' as scalasca %}
select * from (values
    {%- for metric, parent, unit, source in scalasca.metric_tree %}
    ('{{ metric }}', {{ "'" ~ parent ~ "'" if parent else 'null' }}, '{{ unit }}', '{{ source }}')
    {{- ',' if not loop.last }}
    {%- endfor %}
) as tree(metric, parent, unit, source)
