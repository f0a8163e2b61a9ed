{#---
kind: property
parent: mpi_collective
unit: s
timeline: mpi_collective_timeline
wait_state: {class: n2n, label: waiting in N-to-N collectives}
requires: [trace]
info: Time ranks wait in an n-to-n collective (Allreduce, Allgather, Alltoall, ...) for the last rank (Scalasca's mpi_wait_nxn).
description: |
  docs/wait-states.md, mpi_wait_nxn: min(latest B, X) - B per rank of an n-to-n instance, when positive
  (mpi_collective_wait_matches), summed per (call path, location) and over all
  processes. CONDITION value > 0, CONFIDENCE 1, SEVERITY value / Duration(RankBasis, e).
diagnosis: |
  The work before the collective is imbalanced: balance it.
---#}
{% import 'templates/scalasca.sql' as scalasca with context %}
{{ scalasca.collective_metric('mpi_wait_nxn') }}
