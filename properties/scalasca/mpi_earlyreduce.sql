{#---
kind: property
parent: mpi_collective
unit: s
timeline: mpi_collective_timeline
wait_state: {class: n21, label: Early Reduce (N-to-1)}
requires: [trace]
info: Time the root of a Reduce/Gather waits for the latest sender (Scalasca's mpi_earlyreduce).
description: |
  docs/wait-states.md, mpi_earlyreduce: on the root: min(latest B of the other ranks, X) - B, when positive
  (mpi_collective_wait_matches), summed per (call path, location) and over all
  processes. CONDITION value > 0, CONFIDENCE 1, SEVERITY value / Duration(RankBasis, e).
diagnosis: |
  The root arrives early: let it do useful work first, or balance the senders.
---#}
{% import 'templates/scalasca.sql' as scalasca with context %}
{{ scalasca.collective_metric('mpi_earlyreduce') }}
