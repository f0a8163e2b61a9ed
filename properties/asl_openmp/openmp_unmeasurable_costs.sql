{#---
kind: property
parent: openmp_costs
unit: s
requires: [openmp_summary, baseline]
info: "Loss of the parallel run that the measured overheads do not explain (ASL unmeasurable_costs)."
description: |
  ASL §3.4.3.6: total_costs = duration(r, par) - duration(r, seq) / par.nr_processors;
  costs = the measurable costs (openmp_measurable_costs). CONDITION total_costs - costs > 0,
  CONFIDENCE 1, SEVERITY total_costs / duration(RankBasis, par) (as ASL writes it);
  value: total_costs - costs.
diagnosis: |
  Part of the loss is not measured (memory bandwidth, cache effects, ...): compare
  hardware counters of the sequential and the parallel run.
---#}
{% import 'templates/asl_summary.sql' as summary with context %}
with s as (
    select s.*, b.seq_duration,
        s.duration - b.seq_duration / {{ summary.constant('nr_processors') }} as total_costs,
        {{ summary.measurable() }} as measured
    from {{ summary.region_sums('openmp') }} as s
    join {{ ref('callpaths') }} as c using (callpath_id)
    join {{ summary.baseline_durations('openmp') }} as b using (path)
)

{{ summary.result('s', 'r.total_costs - r.measured > 0', 'r.total_costs', 'r.total_costs - r.measured',
                  "json_object('total_costs_s', r.total_costs, 'measurable_costs_s', r.measured)") }}
