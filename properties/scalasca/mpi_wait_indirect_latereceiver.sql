{#---
kind: property
parent: mpi_wait_indirect
unit: s
requires: [trace]
problem: false
info: Late Receiver time caused by the receiver's own waiting (Scalasca's mpi_wait_indirect_latereceiver).
description: |
  Scalasca 2.6 (Waitstates.MPI.pattern; remapping.spec): the mpi_wait_indirect_latereceiver rows of
  root_cause_matches: per Late Receiver wait the part its receiver's own waits explain: scale * delayer_waits_s, at the sending call; summed per (call path, location) and over all
  processes. CONDITION value > 0, CONFIDENCE 1, SEVERITY value / Duration(RankBasis, e).
diagnosis: |
  The receiver was late because it waited itself: follow the chain (delay_*_longterm) to the cause.
---#}
{% import 'templates/scalasca.sql' as scalasca with context %}
{{ scalasca.root_cause_metric('mpi_wait_indirect_latereceiver') }}
