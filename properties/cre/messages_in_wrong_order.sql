{#---
kind: property
parent: comm_cost
unit: s
requires: [trace]
info: Time in the send and receive calls of messages received out of send order.
description: |
  ASL §3.4.1.15 MessagesInWrongOrder: Cost = SUM(cost_s) over PATTERN_MATCHES(WrongOrder(r))
  (wrong_order_matches), per receive call path and location, and over all processes.
  CONDITION Cost > 0, CONFIDENCE 1, SEVERITY Cost / Duration(RankBasis, e).
diagnosis: Receive messages in the order they are sent, or receive with MPI_ANY_SOURCE/MPI_Waitany.
params:
  p_region: {default: null, type: VARCHAR, doc: "Focus region r of the pattern."}
---#}
{% import 'templates/asl.sql' as asl with context %}
{{ asl.sum_matches(ref('wrong_order_matches'), 'cost_s') }}
