{#---
kind: property
parent: mpi_wait_direct
unit: s
requires: [trace]
problem: false
info: Late Sender time caused directly by the sender's work (Scalasca's mpi_wait_direct_latesender).
description: |
  Scalasca 2.6 (Waitstates.MPI.pattern; remapping.spec): the mpi_wait_direct_latesender rows of
  root_cause_matches: per Late Sender wait (including Wrong Order) its time less its indirect part (mpi_wait_indirect_latesender); summed per (call path, location) and over all
  processes. CONDITION value > 0, CONFIDENCE 1, SEVERITY value / Duration(RankBasis, e).
diagnosis: |
  The sender was late because of its own work: see delay_latesender for where.
---#}
{% import 'templates/scalasca.sql' as scalasca with context %}
{{ scalasca.root_cause_metric('mpi_wait_direct_latesender') }}
