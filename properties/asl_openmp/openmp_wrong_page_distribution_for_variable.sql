{#---
kind: property
parent: openmp_remote_access_to_variable
unit: s
requires: [openmp_summary, remote_access_time]
info: "A page of a variable is accessed remotely by one thread only - it may live on the wrong node (ASL wrong_page_distribution_for_variable)."
description: |
  ASL §3.4.3.14, one row per (region, variable; condition_id: the variable): CONDITION
  EXISTS a thread and a page whose remote accesses (thread_sums page_sums) are not 0 and
  equal the page's remote accesses over all threads; CONFIDENCE 0.5; SEVERITY the
  variable's nr_remote_accesses x remote_access_time / duration(RankBasis, e); details:
  the pages and threads found.
diagnosis: |
  Migrate the page to the node of the thread that uses it (or initialise it there: first touch).
---#}
{% import 'templates/asl_summary.sql' as summary with context %}
with pages as (
    select c.callpath_id, v.*
    from {{ ref('variable_accesses') }} as v
    join {{ ref('cnode_callpaths') }} as c using (cnode_id)
),

single_thread_pages as (
    select t.callpath_id, t.var_name, list(struct_pack(page := t.page_no, location_id := t.location_id)) as found
    from pages as t
    join pages as g
        on t.callpath_id = g.callpath_id and t.var_name = g.var_name and t.page_no = g.page_no
        and g.location_id is null
    where t.location_id is not null and t.page_no is not null
        and t.nr_remote_accesses <> 0 and t.nr_remote_accesses = g.nr_remote_accesses
    group by all
),

variables as (
    select v.callpath_id, v.var_name, s.found,
        v.nr_remote_accesses * {{ summary.constant('remote_access_time') }} as cost
    from pages as v
    left join single_thread_pages as s using (callpath_id, var_name)
    where v.location_id is null and v.page_no is null
)

{{ summary.result('variables', 'r.found is not null', 'r.cost', details='to_json(r.found)', confidence='0.5',
                  condition_id='r.var_name') }}
