{#---
kind: property
parent: late_sender
unit: s
wait_state: true
requires: [trace]
info: Late Sender waits where the awaited message overtook an older one from the same sender.
description: |
  CRE report §8 WrongOrderLs: the idle time of the matches of wrong_order_ls_matches
  per receive call path and location, and over all processes. CONDITION idle > 0,
  CONFIDENCE 1, SEVERITY idle / Duration(RankBasis, e). Covers the forms of late_sender
  (MPI_Recv receiving from MPI_Send, the seed's LateSender); wrong-order receives of
  every form are in messages_in_wrong_order (see wrong_order_ls_matches for why).
diagnosis: Receive the messages in the order they are sent (or use MPI_ANY_TAG / MPI_Waitany).
params:
  p_region: {default: null, type: VARCHAR, doc: "Focus region r of the pattern."}
---#}
{% import 'templates/asl.sql' as asl with context %}
{{ asl.sum_matches(ref('wrong_order_ls_matches'), 'idle_s') }}
