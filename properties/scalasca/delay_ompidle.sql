{#---
kind: property
parent: delay_ompidle_aggregate
unit: s
requires: [trace]
problem: false
info: Serial work of a master thread while the other threads of its process idle (Scalasca's delay_ompidle).
description: |
  Scalasca 2.6 (Delay.OMP.pattern, OMP_MGMT_FORK and PREPARE): the delay_ompidle
  rows of root_cause_matches: per serial stretch of a master thread
  (omp_idle_segments), its time per call path since the previous ThreadJoin less
  its waits there (omp_idle_waits), kept where > 0, times the number of idle
  threads, at that call path and the master; summed per (call path, location) and over all processes. CONDITION
  value > 0, CONFIDENCE 1, SEVERITY value / Duration(RankBasis, e).
diagnosis: |
  While the master runs this serially, every other thread of its process idles:
  parallelise it, or overlap it with the parallel work.
---#}
{% import 'templates/scalasca.sql' as scalasca with context %}
{{ scalasca.root_cause_metric('delay_ompidle') }}
