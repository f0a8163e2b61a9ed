{#---
kind: property
parent: mpi_wait_terminal
unit: s
requires: [trace]
problem: false
info: Late Sender time that caused no further waiting (Scalasca's mpi_wait_terminal_ls).
description: |
  Scalasca 2.6 (Waitstates.MPI.pattern; remapping.spec): the mpi_wait_terminal_ls rows of
  root_cause_matches: per Late Sender wait (including Wrong Order) its time less its propagating part (mpi_wait_propagating_ls); summed per (call path, location) and over all
  processes. CONDITION value > 0, CONFIDENCE 1, SEVERITY value / Duration(RankBasis, e).
diagnosis: |
  Waiting that ends here: it costs this rank's time but delays no one else.
---#}
{% import 'templates/scalasca.sql' as scalasca with context %}
{{ scalasca.root_cause_metric('mpi_wait_terminal_ls') }}
