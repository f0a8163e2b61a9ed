{#---
kind: property
parent: late_sender
unit: s
requires: [trace]
info: Late Sender waits where the awaited message overtook an older one from the same sender.
description: |
  CRE report §8 WrongOrderLs: the idle time of the matches of wrong_order_ls_matches
  per receive call path and location, and over all processes. CONDITION idle > 0,
  CONFIDENCE 1, SEVERITY idle / Duration(RankBasis, e).
diagnosis: Receive the messages in the order they are sent (or use MPI_ANY_TAG / MPI_Waitany).
params:
  p_region: {default: null, type: VARCHAR, doc: "Focus region r of the pattern."}
---#}
{% import 'templates/asl.sql' as asl with context %}
{{ asl.sum_matches(ref('wrong_order_ls_matches'), 'idle_s') }}
