{#---
kind: property
parent: delay_barrier_aggregate
unit: s
requires: [trace]
problem: false
info: Computation that made its rank late where ranks waited in a barrier, charged where it happened (Scalasca's delay_barrier).
description: |
  Scalasca 2.6 (Delay.MPI.pattern, short-term delay costs): the delay_barrier rows of
  root_cause_matches: for every wait in a barrier, the delay of each call path on the
  delaying rank (delay_shares) times the wait's scale (delay_scales), at that call
  path and rank; summed per (call path, location) and over all processes.
  CONDITION value > 0, CONFIDENCE 1, SEVERITY value / Duration(RankBasis, e).
diagnosis: |
  This call path on this rank is why others waited in a barrier: it ran longer here
  than on the waiting ranks since they last synchronised. Balancing it removes the
  waiting directly.
---#}
{% import 'templates/scalasca.sql' as scalasca with context %}
{{ scalasca.root_cause_metric('delay_barrier') }}
