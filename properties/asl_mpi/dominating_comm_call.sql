{#---
kind: property
parent: comm_cost
unit: s
info: The call of an MPI communication function (call path) with the largest time over all processes.
description: |
  ASL §3.4.1.6 DominatingCommCall(FuncCall r): CommSummaries = the summaries over all
  processes of the call paths whose called function is an MPI communication function
  (MPICommFunc, not MPI_Barrier); MaxCommTime = MAX Incl. CONDITION
  Duration(r, e) == MaxCommTime, CONFIDENCE 1, SEVERITY MaxCommTime /
  Duration(RankBasis, e). One row per such call path, value its Incl; only the
  dominating one's condition holds.
diagnosis: |
  Most communication time is spent at this call: reduce its messages, make it
  non-blocking and overlap it, or remove the wait states it suffers.
---#}
{% import 'templates/asl.sql' as asl with context %}
with comm_calls as (
    select s.callpath_id, s.location_id, s.incl_s as value
    from {{ ref('comm_summaries') }} as s
    where s.location_id is not null
),

per_call as (
    select callpath_id, null::bigint as region_id, sum(value) as value, {{ asl.distribution() }} as details
    from comm_calls
    group by callpath_id
)

{{ asl.dominating('per_call') }}
