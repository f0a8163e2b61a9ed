{#---
kind: property
parent: delay_12n_aggregate
unit: s
requires: [trace]
problem: false
info: Computation that made its rank late where ranks waited for the root of a 1-to-N collective, charged where it happened (Scalasca's delay_12n).
description: |
  Scalasca 2.6 (Delay.MPI.pattern, short-term delay costs): the delay_12n rows of
  root_cause_matches: for every wait for the root of a 1-to-N collective (Late
  Broadcast), the delay of each call path on the
  delaying rank (delay_shares) times the wait's scale (delay_scales), at that call
  path and rank; summed per (call path, location) and over all processes.
  CONDITION value > 0, CONFIDENCE 1, SEVERITY value / Duration(RankBasis, e).
diagnosis: |
  This call path on this rank is why others waited (Late Broadcast): it ran longer here
  than on the waiting ranks since they last synchronised. Balancing it removes the
  waiting directly.
---#}
{% import 'templates/scalasca.sql' as scalasca with context %}
{{ scalasca.root_cause_metric('delay_12n') }}
