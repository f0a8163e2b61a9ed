{#---
kind: property
parent: total_cost
unit: s
info: Time a call path spends in MPI barrier synchronisation, over all processes.
description: |
  ASL §3.4.1.3 SyncCost = Cost<SyncCostFunc>, SyncCostFunc(r, e) = Summary(r, e).SyncTime.
  CONDITION cost > 0, CONFIDENCE 1, SEVERITY cost / Duration(RankBasis, e).
diagnosis: Remove barriers that are not needed; balance the work before the ones that are.
---#}
{% import 'templates/asl.sql' as asl with context %}
{{ asl.cost('sync_s') }}
