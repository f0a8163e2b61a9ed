{#---
kind: property
parent: openmp_measurable_costs
unit: s
requires: [openmp_summary, parallel_region_cost]
info: "An OpenMP parallel region entered many times, each costing the start of a team (ASL parallel_organization)."
description: |
  ASL §3.4.3.15: CONDITION the region is a ParallelRegion (kind PRegion, PSection or PDo)
  AND summary(r, e).nr_executions > 1; CONFIDENCE 1; SEVERITY nr_executions x the machine
  constant parallel_region_cost / duration(RankBasis, e); value: that estimated time.
diagnosis: |
  Merge parallel regions or move them out of loops, so the team starts fewer times.
---#}
{% import 'templates/asl_summary.sql' as summary with context %}
{{ summary.costs('openmp', 's.nr_executions * ' ~ summary.constant('parallel_region_cost'),
                 "s.kind in ('PRegion', 'PSection', 'PDo') and s.nr_executions > 1") }}
