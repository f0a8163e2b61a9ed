{#---
kind: property
parent: openmp_remote_accesses
unit: s
requires: [openmp_summary, remote_access_time]
info: "Remote (ccNUMA) accesses of an OpenMP region to one variable (ASL remote_access_to_variable)."
description: |
  ASL §3.4.3.12, one row per (region, variable; condition_id: the variable's name): the
  variable's nr_remote_accesses in the region sums (accessed_variables); CONDITION > 0,
  CONFIDENCE 1, SEVERITY nr_remote_accesses x remote_access_time / duration(RankBasis, e);
  value: that estimated time.
diagnosis: |
  This variable's data lives on other nodes: distribute its pages where the threads use them.
---#}
{% import 'templates/asl_summary.sql' as summary with context %}
with variables as (
    select c.callpath_id, v.var_name, v.nr_remote_accesses * {{ summary.constant('remote_access_time') }} as cost
    from {{ ref('variable_accesses') }} as v
    join {{ ref('cnode_callpaths') }} as c using (cnode_id)
    where v.location_id is null and v.page_no is null
)

{{ summary.result('variables', 'r.cost > 0', 'r.cost', condition_id='r.var_name') }}
