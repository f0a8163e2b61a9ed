{#---
kind: property
parent: mpi_wait_indirect
unit: s
requires: [trace]
problem: false
info: Late Sender time caused by the sender's own waiting (Scalasca's mpi_wait_indirect_latesender).
description: |
  Scalasca 2.6 (Waitstates.MPI.pattern; remapping.spec): the mpi_wait_indirect_latesender rows of
  root_cause_matches: per Late Sender wait the part its sender's own waits explain: scale * delayer_waits_s (delay_resolutions, delay_scales), at the receiving call; summed per (call path, location) and over all
  processes. CONDITION value > 0, CONFIDENCE 1, SEVERITY value / Duration(RankBasis, e).
diagnosis: |
  The sender was late because it waited itself: follow the chain (delay_*_longterm) to the cause.
---#}
{% import 'templates/scalasca.sql' as scalasca with context %}
{{ scalasca.root_cause_metric('mpi_wait_indirect_latesender') }}
