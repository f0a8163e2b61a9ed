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
  SEVERITY Cost / Duration(RankBasis, e). details: the distribution over the processes,
  executions, seconds per execution.
diagnosis: |
  Many short messages: aggregate them into fewer, larger ones (pack halo
  data, use derived datatypes or collectives).
params:
  p_small_comm_s: {default: 1.0e-5, type: DOUBLE, doc: "SmallMessagesThreshold: time per execution (s) below which a communication is small."}
---#}
{% import 'templates/asl.sql' as asl with context %}
with per_call as (
    select
        callpath_id,
        sum(incl_s) as value,
        sum(executions) as executions,
        {{ asl.distribution('incl_s') }} as details
    from {{ ref('comm_summaries') }}
    where location_id is not null
    group by callpath_id
)

select
    callpath_id,
    null::bigint as region_id,
    null::bigint as location_id,
    null::varchar as condition_id,
    value > 0 and value / executions < $p_small_comm_s as condition,
    1.0::double as confidence,
    value / rank_basis.basis_s as severity,
    value,
    json_merge_patch(details, json_object('executions', executions, 'per_execution_s', value / executions))::varchar
        as details
from per_call
cross join {{ ref('rank_basis') }} as rank_basis
