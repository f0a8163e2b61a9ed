{#---
kind: property
parent: mpi_latesender_wo
unit: s
requires: [trace]
info: Wrong-order Late Sender time where the earlier-sent message came from the same sender.
description: |
  reference/wait-states.md, mpi_lswo_same: mpi_latesender_wo restricted to matches
  whose revealing receive R' came from the same source as the waiting receive R_i
  (a different tag or communicator). CONDITION idle > 0, CONFIDENCE 1,
  SEVERITY idle / Duration(RankBasis, e).
diagnosis: |
  Messages of one sender are received in another order than they were sent:
  match the receive order to the send order (tags), or use MPI_ANY_TAG.
---#}
{% import 'templates/asl.sql' as asl with context %}
{{ asl.sum_matches('(select * from ' ~ ref('mpi_latesender_wo_matches') ~ ' where same_source)', 'idle_s') }}
