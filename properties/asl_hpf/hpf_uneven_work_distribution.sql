{#---
kind: property
parent: hpf_costs
unit: s
requires: [hpf_summary, baseline]
info: "Computation of an HPF region unevenly distributed over the processes (ASL uneven_work_distribution)."
description: |
  ASL §3.4.2.10: opt_duration = duration(r, seq) / (number of processes with proc_sums);
  deviation = sqrt(sum over the processes of (duration - comm_time - sync_time - idle_time
  - compiler_ovh_time - io_time - opt_duration)^2); CONDITION deviation / opt_duration >
  $p_uneven_threshold; CONFIDENCE 1; SEVERITY sums.duration / duration(RankBasis, par);
  value: sums.duration; details: deviation and opt_duration.
diagnosis: |
  Some processes compute more than others: change the distribution (CYCLIC, GEN_BLOCK) of the arrays the region works on.
params:
  p_uneven_threshold: {default: 0.1, type: DOUBLE, doc: "uneven_threshold: deviation relative to the optimal duration above which the distribution is uneven."}
---#}
{% import 'templates/asl_summary.sql' as summary with context %}
with per_process as (
    select callpath_id, count(*) as n,
        list(duration - coalesce(comm_time, 0) - coalesce(sync_time, 0) - coalesce(idle_time, 0)
             - coalesce(compiler_ovh_time, 0) - coalesce(io_time, 0)) as comp
    from {{ ref('hpf_summary') }}
    where location_id is not null
    group by callpath_id
),

rated as (
    select s.callpath_id, s.duration, b.seq_duration / p.n as opt_duration,
        sqrt(list_sum(list_transform(p.comp, x -> (x - b.seq_duration / p.n) ^ 2))) as deviation
    from {{ summary.region_sums('hpf') }} as s
    join per_process as p using (callpath_id)
    join {{ ref('callpaths') }} as c using (callpath_id)
    join {{ summary.baseline_durations('hpf') }} as b using (path)
)

{{ summary.result('rated', 'r.deviation / r.opt_duration > $p_uneven_threshold', 'r.duration',
                  details="json_object('deviation_s', r.deviation, 'opt_duration_s', r.opt_duration)") }}
