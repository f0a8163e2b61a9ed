{#---
kind: property
parent: openmp_synchronization
unit: s
requires: [openmp_summary]
info: "An OpenMP region whose synchronisation time varies strongly between its instances (ASL irregular_sync_across_instances)."
description: |
  ASL §3.4.3.9: inst_sync = region_wait + region_ctrl + cross_thread_dep_wait +
  cross_thread_dep_ctrl of each instance (instance_sums); CONDITION stdev(inst_sync over the
  instances) > $p_irreg_behaviour_threshold x sync(r, e) / r.nr_executions; CONFIDENCE 1;
  SEVERITY sync(r, e) / duration(RankBasis, e); value: sync(r, e); details: the stdev.
  (Population standard deviation over the instances given.)
diagnosis: |
  The synchronisation cost changes over the run (load imbalance in some phases only):
  look at the instances with the largest sync time.
params:
  p_irreg_behaviour_threshold: {default: 0.5, type: DOUBLE, doc: "irreg_behaviour_threshold: the stdev, relative to the mean sync per execution, above which instances are irregular."}
---#}
{% import 'templates/asl_summary.sql' as summary with context %}
with instances as (
    select i.callpath_id, stddev_pop({{ summary.sync('i') }}) as deviation, count(*) as n
    from {{ ref('sm_summary') }} as i
    where i.instance_no is not null
    group by i.callpath_id
),

regions as (
    select s.callpath_id, {{ summary.sync() }} as sync_s, s.nr_executions, i.deviation, i.n
    from {{ summary.region_sums('openmp') }} as s
    join instances as i using (callpath_id)
)

{{ summary.result('regions', 'r.deviation > $p_irreg_behaviour_threshold * r.sync_s / r.nr_executions', 'r.sync_s',
                  details="json_object('stdev_s', r.deviation, 'instances', r.n)") }}
