{#---
kind: property
parent: openmp_remote_access_to_variable
unit: s
requires: [openmp_summary, remote_access_time, cache_line_size]
info: "The same cache lines of a variable move between processors more than once (ASL multiple_transfer_of_same_data)."
description: |
  ASL §3.4.3.13, one row per (region, variable; condition_id: COND1 or COND2 and the
  variable): n = the variable's nr_remote_accesses, lines = size / cache_line_size.
  Cond1 n x e.nr_processors > lines x nr_executions (confidence 1); Cond2 n x
  e.nr_processors > 0.5 x lines x nr_executions (confidence 0.5). CONFIDENCE the MAX over
  the conditions that hold; SEVERITY n x remote_access_time / duration(RankBasis, e).
diagnosis: |
  Threads write the same lines in turn (false sharing or ping-pong): pad or privatise the
  data, or change which thread works on which part.
---#}
{% import 'templates/asl_summary.sql' as summary with context %}
with variables as (
    select
        c.callpath_id,
        v.var_name,
        v.nr_remote_accesses * {{ summary.constant('nr_processors') }} as accesses,
        v.size_bytes / {{ summary.constant('cache_line_size') }} * s.nr_executions as lines,
        v.nr_remote_accesses * {{ summary.constant('remote_access_time') }} as cost
    from {{ ref('variable_accesses') }} as v
    join {{ ref('cnode_callpaths') }} as c using (cnode_id)
    join {{ summary.region_sums('openmp') }} as s using (callpath_id)
    where v.location_id is null and v.page_no is null
),

conditions as (
    select callpath_id, var_name, cost, 'COND1' as condition_id, accesses > lines as holds, 1.0 as confidence
    from variables
    union all
    select callpath_id, var_name, cost, 'COND2', accesses > 0.5 * lines, 0.5
    from variables
)

select
    c.callpath_id,
    null::bigint as region_id,
    null::bigint as location_id,
    coalesce(arg_max(c.condition_id, c.confidence) filter (where c.holds), 'COND1')
    || ':'
    || c.var_name as condition_id,
    coalesce(bool_or(c.holds), false) as condition,
    coalesce(max(c.confidence) filter (where c.holds), 0) as confidence,
    any_value(c.cost) / any_value(basis.basis_s) as severity,
    any_value(c.cost) as value,
    null::varchar as details
from conditions as c
cross join {{ ref('summary_rank_basis') }} as basis
group by c.callpath_id, c.var_name
