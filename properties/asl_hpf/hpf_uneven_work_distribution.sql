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
-- each process's computation in the region: its duration less everything that is not
with per_process as (
    select
        callpath_id,
        duration - coalesce(comm_time, 0) - coalesce(sync_time, 0) - coalesce(idle_time, 0)
        - coalesce(compiler_ovh_time, 0) - coalesce(io_time, 0) as comp
    from {{ ref('hpf_summary') }}
    where location_id is not null
),

processes as (
    select callpath_id, count(*) as n from per_process group by callpath_id
),

-- opt_duration = duration(r, seq) / processes; deviation = sqrt(sum((comp - opt)^2))
rated as (
    select
        s.callpath_id,
        any_value(s.duration) as duration,
        any_value(b.seq_duration / p.n) as opt_duration,
        sqrt(sum((q.comp - b.seq_duration / p.n) ^ 2 order by q.comp)) as deviation
    from {{ summary.region_sums('hpf') }} as s
    join processes as p using (callpath_id)
    join per_process as q using (callpath_id)
    join {{ ref('callpaths') }} as c using (callpath_id)
    join {{ summary.baseline_durations('hpf') }} as b using (path)
    group by s.callpath_id
)

{{ summary.result('rated', 'r.deviation / r.opt_duration > $p_uneven_threshold', 'r.duration',
                  details="json_object('deviation_s', r.deviation, 'opt_duration_s', r.opt_duration)") }}
