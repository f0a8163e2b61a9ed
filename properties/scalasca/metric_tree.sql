{#---
kind: pattern
parent: null
unit: s
columns: {metric: VARCHAR, parent: VARCHAR, unit: VARCHAR, kind: VARCHAR, depth: INTEGER,
  position: INTEGER}
info: Scalasca's metric hierarchy (docs/wait-states.md, time hierarchy) as rows.
description: |
  One row per metric in tree order (position; depth 0 for the roots time, visits, bytes,
  comms, syncs, critical_path, performance_impact): metric, parent (NULL for a root),
  unit (s, count or bytes) and kind: 'category' for a metric that is the sum of its
  leaves and sub-metrics (the leaf time categories take a call path's time by its
  region, see time_cube; a category with sums: children, Scalasca's POSTDERIVED
  metric::a() + metric::b(), the sum of its sub-metrics), 'property' for a catalog
  property whose rows are the metric (a wait state, a part of its parent's time). The rows are the catalog
  entries under those roots (properties/scalasca/categories and every property whose
  parent chain leads there): adding a metric is adding its file.
diagnosis: Not a problem; the structure of time_cube.
---#}
{%- import 'templates/scalasca.sql' as scalasca with context %}
select * from (values
    {%- for entry in catalog_tree(scalasca.metric_roots) %}
    ('{{ entry.name }}', {{ "'" ~ entry.parent ~ "'" if entry.parent else 'null' }}, '{{ entry.unit }}',
        '{{ entry.kind }}', {{ entry.depth }}, {{ loop.index0 }})
    {{- ',' if not loop.last }}
    {%- endfor %}
) as tree (metric, parent, unit, kind, depth, position)
