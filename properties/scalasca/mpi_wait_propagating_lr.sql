{#---
kind: property
parent: mpi_wait_propagating
unit: s
requires: [trace]
problem: false
info: Late Receiver time that caused further waiting (Scalasca's mpi_wait_propagating_lr).
description: |
  Scalasca 2.6 (Waitstates.MPI.pattern; remapping.spec): the mpi_wait_propagating_lr rows of
  root_cause_matches: the largest share of a Late Receiver wait that a later point-to-point wait put on it, as for mpi_wait_propagating_ls; summed per (call path, location) and over all
  processes. CONDITION value > 0, CONFIDENCE 1, SEVERITY value / Duration(RankBasis, e).
diagnosis: |
  This waiting delayed its rank and so caused waiting elsewhere: removing its cause removes both.
---#}
{% import 'templates/scalasca.sql' as scalasca with context %}
{{ scalasca.root_cause_metric('mpi_wait_propagating_lr') }}
