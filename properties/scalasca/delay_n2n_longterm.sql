{#---
kind: property
parent: delay_n2n_aggregate
unit: s
requires: [trace]
problem: false
info: Computation that caused waiting which then caused waiting in N-to-N collectives further on (Scalasca's delay_n2n_longterm).
description: |
  Scalasca 2.6 (Delay.MPI.pattern, DELAY_N2N_LONGTERM): the delay_n2n_longterm
  rows of root_cause_matches: for every wait that carries a cost of class n2n
  (delay_costs: N-to-N waiting it caused indirectly, through waits it
  propagated to), that cost divided over the delays of its own delayer (cost /
  denominator_s * delay_s), at the delaying call path and rank; summed per (call
  path, location) and over all processes. CONDITION value > 0, CONFIDENCE 1,
  SEVERITY value / Duration(RankBasis, e).
diagnosis: |
  This call path on this rank started a chain of waits that ended in waiting in an
  N-to-N collective elsewhere; the waiting does not show where the cause is, this does.
---#}
{% import 'templates/scalasca.sql' as scalasca with context %}
{{ scalasca.root_cause_metric('delay_n2n_longterm') }}
