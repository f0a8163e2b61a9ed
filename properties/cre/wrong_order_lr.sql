{#---
kind: property
parent: late_receiver
unit: s
wait_state: true
requires: [trace]
info: Late Receiver waits on messages that overtook an older one from the same sender.
description: |
  CRE report §8 WrongOrderLr: the idle time of wrong_order_lr_matches per send call
  path and location, and over all processes. CONDITION idle > 0, CONFIDENCE 0.5
  (medium, as late_receiver), SEVERITY idle / Duration(RankBasis, e). Covers the forms
  of late_receiver (MPI_Send received by MPI_Recv, the seed's LateReceiver); wrong-order
  messages of every form are in messages_in_wrong_order (see wrong_order_lr_matches).
diagnosis: Post the receives in the order the messages are sent.
params:
  p_region: {default: null, type: VARCHAR, doc: "Focus region r of the pattern."}
---#}
{% import 'templates/asl.sql' as asl with context %}
{{ asl.sum_matches(ref('wrong_order_lr_matches'), 'idle_s', confidence=0.5) }}
