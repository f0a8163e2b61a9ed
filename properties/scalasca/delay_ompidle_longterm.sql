{#---
kind: property
parent: delay_ompidle_aggregate
unit: s
requires: [trace]
problem: false
info: Work that made an OpenMP master wait in serial code, and so its idle threads too (Scalasca's delay_ompidle_longterm).
description: |
  Scalasca 2.6 (Delay.OMP.pattern, DELAY_OMPIDLE_LONGTERM): the
  delay_ompidle_longterm rows of root_cause_matches: the waits of masters in serial
  stretches carry idle_threads * wait_s as cost (omp_idle_waits, delay_costs),
  divided over the delays of their delayers; summed per (call path, location) and over all processes. CONDITION
  value > 0, CONFIDENCE 1, SEVERITY value / Duration(RankBasis, e).
diagnosis: |
  This call path on another rank made a master wait in serial code while its
  threads idled: the idle time is caused here.
---#}
{% import 'templates/scalasca.sql' as scalasca with context %}
{{ scalasca.root_cause_metric('delay_ompidle_longterm') }}
