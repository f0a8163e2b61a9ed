{#---
kind: property
parent: mpi_collective
unit: s
timeline: mpi_collective_timeline
wait_state: true
requires: [trace]
info: Time ranks wait in a Scan/Exscan for a lower rank (Scalasca's mpi_earlyscan).
description: |
  docs/wait-states.md, mpi_earlyscan: min(max B over ranks 0..me, X) - B, when positive
  (mpi_collective_wait_matches), summed per (call path, location) and over all
  processes. CONDITION value > 0, CONFIDENCE 1, SEVERITY value / Duration(RankBasis, e).
diagnosis: |
  Lower ranks arrive late: balance the work before the scan.
---#}
{% import 'templates/scalasca.sql' as scalasca with context %}
{{ scalasca.collective_metric('mpi_earlyscan') }}
