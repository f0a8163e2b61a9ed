{#---
kind: property
parent: mpi_collective
unit: s
timeline: mpi_collective_timeline
wait_state: {completion: true}
requires: [trace]
info: Time ranks need to finish an n-to-n collective after the first rank finished (Scalasca's mpi_nxn_completion).
description: |
  docs/wait-states.md, mpi_nxn_completion: X - max(earliest X, min(latest B, X)) per rank of an n-to-n instance, when positive
  (mpi_collective_wait_matches), summed per (call path, location) and over all
  processes. CONDITION value > 0, CONFIDENCE 1, SEVERITY value / Duration(RankBasis, e).
diagnosis: |
  Usually the data transfer itself: reduce the volume or use a better algorithm.
---#}
{% import 'templates/scalasca.sql' as scalasca with context %}
{{ scalasca.collective_metric('mpi_nxn_completion') }}
