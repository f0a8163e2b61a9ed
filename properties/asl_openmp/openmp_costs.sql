{#---
kind: property
parent: null
unit: s
requires: [openmp_summary, baseline]
info: "The parallel run loses time against the sequential run divided by the processors (ASL OpenMP costs)."
description: |
  ASL §3.4.3.4 costs = rel_costs<par_costs>: par_costs(r, seq, par) = duration(r, par) -
  duration(r, seq) / par.nr_processors (duration: the master thread's, sm_summary; seq:
  the --baseline experiment, regions matched by call path). CONDITION cost > 0,
  CONFIDENCE 1, SEVERITY cost / duration(RankBasis, par).
diagnosis: |
  The speedup is not linear; openmp_measurable_costs shows how much of the loss is
  measured and openmp_unmeasurable_costs how much is not.
---#}
{% import 'templates/asl_summary.sql' as summary with context %}
{{ summary.costs('openmp', 's.duration - b.seq_duration / ' ~ summary.constant('nr_processors'), baseline=true) }}
