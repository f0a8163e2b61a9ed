{#---
kind: property
parent: hpf_costs
unit: s
requires: [hpf_summary]
info: "Compiler overhead of an HPF region run by several processes (ASL parallel_organization_costs)."
description: |
  ASL §3.4.2.7: CONDITION more than one process executes the region (its proc_sums);
  CONFIDENCE 1; SEVERITY sums.compiler_ovh_time / duration(RankBasis, e); value: compiler_ovh_time.
diagnosis: |
  The compiler adds code to decide which process executes what: simplify the distribution or the loop bounds.
---#}
{% import 'templates/asl_summary.sql' as summary with context %}
with processes as (
    select callpath_id, count(*) as n
    from {{ ref('hpf_summary') }}
    where location_id is not null
    group by callpath_id
),

regions as (
    select s.callpath_id, coalesce(s.compiler_ovh_time, 0) as overhead, coalesce(p.n, 0) as processes
    from {{ summary.region_sums('hpf') }} as s
    left join processes as p using (callpath_id)
)

{{ summary.result('regions', 'r.processes > 1', 'r.overhead', details="json_object('processes', r.processes)") }}
