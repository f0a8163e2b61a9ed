{#---
kind: property
parent: mpi_latesender_wo
unit: s
requires: [trace]
info: Wrong-order Late Sender time where the earlier-sent message came from another sender.
description: |
  reference/wait-states.md, mpi_lswo_different: mpi_latesender_wo restricted to
  matches whose revealing receive R' came from a different source than the waiting
  receive R_i. CONDITION idle > 0, CONFIDENCE 1, SEVERITY idle / Duration(RankBasis, e).
diagnosis: |
  The receiver waits for one partner while another partner's message is already
  there: receive from all partners at once (MPI_Irecv + MPI_Waitany/Waitsome).
---#}
{% import 'templates/asl.sql' as asl with context %}
{{ asl.sum_matches('(select * from ' ~ ref('mpi_latesender_wo_matches') ~ ' where not same_source)', 'idle_s') }}
