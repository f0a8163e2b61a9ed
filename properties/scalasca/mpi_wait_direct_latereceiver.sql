{#---
kind: property
parent: mpi_wait_direct
unit: s
requires: [trace]
problem: false
info: Late Receiver time caused directly by the receiver's work (Scalasca's mpi_wait_direct_latereceiver).
description: |
  Scalasca 2.6 (Waitstates.MPI.pattern; remapping.spec): the mpi_wait_direct_latereceiver rows of
  root_cause_matches: per Late Receiver wait its time less its indirect part (mpi_wait_indirect_latereceiver); summed per (call path, location) and over all
  processes. CONDITION value > 0, CONFIDENCE 1, SEVERITY value / Duration(RankBasis, e).
diagnosis: |
  The receiver was late because of its own work: see delay_latereceiver for where.
---#}
{% import 'templates/scalasca.sql' as scalasca with context %}
{{ scalasca.root_cause_metric('mpi_wait_direct_latereceiver') }}
