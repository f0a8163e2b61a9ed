{#---
kind: property
parent: total_cost
unit: s
info: Time a call path spends in MPI communication (point-to-point and collective), over all processes.
description: |
  ASL §3.4.1.3 CommCost = Cost<CommCostFunc>, CommCostFunc(r, e) = Summary(r, e).CommTime.
  CONDITION cost > 0, CONFIDENCE 1, SEVERITY cost / Duration(RankBasis, e).
diagnosis: |
  Reduce the number or volume of messages, overlap communication with computation,
  or find the wait states (late_sender, late_receiver) inside this time.
---#}
{% import 'templates/asl.sql' as asl with context %}
{{ asl.cost('comm_s') }}
