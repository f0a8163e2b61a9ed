{#---
kind: property
parent: delay_ompbarrier_aggregate
unit: s
requires: [trace]
problem: false
info: Work that caused waiting which then made threads wait at OpenMP barriers (Scalasca's delay_ompbarrier_longterm).
description: |
  Scalasca 2.6 (Delay.OMP.pattern, DELAY_OMPBARRIER_LONGTERM): the
  delay_ompbarrier_longterm rows of root_cause_matches: for every wait that carries
  a cost of class ompbarrier (delay_costs: the MPI waits in the interval of a
  barrier's last thread), that cost divided over the delays of its own delayer; summed per (call path, location) and over all processes. CONDITION
  value > 0, CONFIDENCE 1, SEVERITY value / Duration(RankBasis, e).
diagnosis: |
  This call path started a chain of waits that ended in threads waiting at an
  OpenMP barrier.
---#}
{% import 'templates/scalasca.sql' as scalasca with context %}
{{ scalasca.root_cause_metric('delay_ompbarrier_longterm') }}
