{#---
kind: property
parent: hpf_costs
unit: s
requires: [hpf_summary, baseline]
info: "An HPF region whose parallel computation takes as long as running it sequentially (ASL serialization_costs)."
description: |
  ASL §3.4.2.9: par_comp_costs = duration - comm_time - sync_time - idle_time -
  compiler_ovh_time - io_time of the parallel run's sums; CONDITION par_comp_costs >
  duration(r, seq) x $p_loop_serial_threshold (seq: the --baseline experiment, regions
  matched by call path); CONFIDENCE 1; SEVERITY par_comp_costs / duration(RankBasis, par).
diagnosis: |
  The region runs (nearly) serially: check that its loops are parallelised (INDEPENDENT, distribution of the arrays it writes).
params:
  p_loop_serial_threshold: {default: 0.5, type: DOUBLE, doc: "loop_serial_threshold: fraction of the sequential duration above which the parallel computation counts as serialized."}
---#}
{% import 'templates/asl_summary.sql' as summary with context %}
with s as (
    select s.callpath_id, b.seq_duration,
        s.duration - coalesce(s.comm_time, 0) - coalesce(s.sync_time, 0) - coalesce(s.idle_time, 0)
            - coalesce(s.compiler_ovh_time, 0) - coalesce(s.io_time, 0) as par_comp
    from {{ summary.region_sums('hpf') }} as s
    join {{ ref('callpaths') }} as c using (callpath_id)
    join {{ summary.baseline_durations('hpf') }} as b using (path)
)

{{ summary.result('s', 'r.par_comp > r.seq_duration * $p_loop_serial_threshold', 'r.par_comp',
                  details="json_object('seq_duration_s', r.seq_duration)") }}
