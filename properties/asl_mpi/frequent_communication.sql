{#---
kind: property
parent: comm_cost
unit: s
info: A communication call executed often with little time per execution (small messages).
description: |
  ASL §3.4.1.7 FrequentCommunication(FuncCall r): Cost = Duration(r, e), the Incl over
  all processes of a call path whose called function is an MPI communication function.
  CONDITION Cost > 0 AND Cost / Summary(r, e).NrExecutions < SmallMessagesThreshold
  ($p_small_comm_s, seconds per execution), CONFIDENCE 1,
  SEVERITY Cost / Duration(RankBasis, e). details: executions, seconds per execution.
diagnosis: |
  Many short messages: aggregate them into fewer, larger ones (pack halo
  data, use derived datatypes or collectives).
params:
  p_small_comm_s: {default: 1.0e-5, type: DOUBLE, doc: "SmallMessagesThreshold: time per execution (s) below which a communication is small."}
---#}
with comm_calls as (
    select s.*
    from {{ ref('comm_summaries') }} as s
    where s.location_id is null
)

select
    callpath_id,
    null::bigint as region_id,
    null::bigint as location_id,
    null::varchar as condition_id,
    incl_s > 0 and incl_s / executions < $p_small_comm_s as condition,
    1.0::double as confidence,
    incl_s / rank_basis.basis_s as severity,
    incl_s as value,
    json_object('executions', executions, 'per_execution_s', incl_s / executions)::varchar as details
from comm_calls
cross join {{ ref('rank_basis') }} as rank_basis
