{#---
kind: property
parent: mpi_point2point
unit: s
timeline: mpi_latesender_timeline
wait_state: {class: latesender, label: Late Sender}
requires: [trace]
info: Time receivers wait for a send that starts late (Scalasca's mpi_latesender).
description: |
  docs/wait-states.md, mpi_latesender: SUM of the idle times of
  mpi_latesender_matches per (receive-completing call path, location), and over all
  processes; agrees with Scalasca 2.6. CONDITION idle > 0, CONFIDENCE 1,
  SEVERITY idle / Duration(RankBasis, e).
diagnosis: |
  The sending rank arrives late: balance the work before the send, or post the
  receive non-blocking and complete it as late as possible.
---#}
{% import 'templates/asl.sql' as asl with context %}
{{ asl.sum_matches(ref('mpi_latesender_matches'), 'idle_s') }}
