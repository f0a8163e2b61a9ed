{#---
kind: property
parent: mpi_collective
unit: s
timeline: mpi_collective_timeline
wait_state: {class: 12n, label: Late Broadcast (1-to-N)}
requires: [trace]
info: Time ranks wait in a Bcast/Scatter for a late root (Scalasca's mpi_latebroadcast).
description: |
  docs/wait-states.md, mpi_latebroadcast: on non-root ranks: min(B of the root, X) - B, when positive
  (mpi_collective_wait_matches), summed per (call path, location) and over all
  processes. CONDITION value > 0, CONFIDENCE 1, SEVERITY value / Duration(RankBasis, e).
diagnosis: |
  The root arrives late: move work off the root, or broadcast earlier.
---#}
{% import 'templates/scalasca.sql' as scalasca with context %}
{{ scalasca.collective_metric('mpi_latebroadcast') }}
