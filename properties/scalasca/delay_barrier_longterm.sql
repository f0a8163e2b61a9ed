{#---
kind: property
parent: delay_barrier_aggregate
unit: s
requires: [trace]
problem: false
info: Computation that caused waiting which then caused waiting in barriers further on (Scalasca's delay_barrier_longterm).
description: |
  Scalasca 2.6 (Delay.MPI.pattern, DELAY_BARRIER_LONGTERM): the delay_barrier_longterm
  rows of root_cause_matches: for every wait that carries a cost of class barrier
  (delay_costs: barrier waiting it caused indirectly, through waits it
  propagated to), that cost divided over the delays of its own delayer (cost /
  denominator_s * delay_s), at the delaying call path and rank; summed per (call
  path, location) and over all processes. CONDITION value > 0, CONFIDENCE 1,
  SEVERITY value / Duration(RankBasis, e).
diagnosis: |
  This call path on this rank started a chain of waits that ended in waiting in a
  barrier elsewhere; the waiting does not show where the cause is, this does.
---#}
{% import 'templates/scalasca.sql' as scalasca with context %}
{{ scalasca.root_cause_metric('delay_barrier_longterm') }}
