{#---
kind: property
parent: hpf_costs
unit: s
requires: [hpf_summary]
info: "Time spent redistributing arrays, inside procedures or at REDISTRIBUTE (ASL redist_costs)."
description: |
  ASL §3.4.2.8, two conditions (the report's ids): Cond1 the region is an HPFProcedure with a declaration
  of format PRESCRIPTIVE or TRANSCRIPTIVE AND impl_redistr_time > 0 (confidence 0.8,
  severity impl_redistr_time / duration(RankBasis, e)); Cond2 the region is an
  HPFRedistribute with a DYNAMIC declaration AND expl_redistr_time > 0 (confidence 1.0,
  severity expl_redistr_time / duration(RankBasis, e)). CONFIDENCE and SEVERITY the MAX
  over the conditions that hold; condition_id names them.
diagnosis: |
  Redistribution moves whole arrays: check that the better distribution pays for it, or avoid remapping dummy arguments.
---#}
{% import 'templates/asl_summary.sql' as summary with context %}
{% import 'templates/asl.sql' as asl with context %}
with decls as (
    select c.callpath_id,
        bool_or(d.format in ('PRESCRIPTIVE', 'TRANSCRIPTIVE')) as remapping_dummy,
        bool_or(d.alloc = 'DYNAMIC') as dynamic
    from {{ ref('hpf_decls') }} as d
    join {{ ref('cnode_callpaths') }} as c using (cnode_id)
    group by c.callpath_id
),

regions as (
    select s.*, coalesce(d.remapping_dummy, false) as remapping_dummy, coalesce(d.dynamic, false) as dynamic
    from {{ summary.region_sums('hpf') }} as s
    left join decls as d using (callpath_id)
),

rated as (
    select callpath_id, null::bigint as region_id, null::bigint as location_id, 'Cond1' as condition_id,
        kind = 'HPFProcedure' and remapping_dummy and coalesce(impl_redistr_time, 0) > 0 as condition,
        0.8::double as confidence, coalesce(impl_redistr_time, 0) / basis.basis_s as severity,
        coalesce(impl_redistr_time, 0) as value, null::varchar as details
    from regions cross join {{ ref('summary_rank_basis') }} as basis

    union all

    select callpath_id, null, null, 'Cond2',
        kind = 'HPFRedistribute' and dynamic and coalesce(expl_redistr_time, 0) > 0,
        1.0, coalesce(expl_redistr_time, 0) / basis.basis_s, coalesce(expl_redistr_time, 0), null
    from regions cross join {{ ref('summary_rank_basis') }} as basis
)

{{ asl.max_over_conditions('rated') }}
