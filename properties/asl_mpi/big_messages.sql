{#---
kind: property
parent: comm_cost
unit: s
info: A communication call moving large messages on average.
description: |
  ASL §3.4.1.8 BigMessages(FuncCall r): Cost = Summary(r, e).CommTime over all
  processes; AvgLength = MessageLength / NrExecutions, where MessageLength is the
  number of bytes the call moves: bytes sent, or received for receiving calls (the
  larger of Summary's bytes_sent and bytes_received; ASL counts bytes sent, which
  would leave every receive out). CONDITION the call is an MPI communication function
  AND Cost > 0 AND AvgLength > BigMessagesThreshold ($p_big_message_bytes),
  CONFIDENCE 1, SEVERITY Cost / Duration(RankBasis, e). details: average bytes.
diagnosis: |
  Communication is bandwidth-bound here: send less data (compress, send only what
  changed), or overlap the transfer with computation.
params:
  p_big_message_bytes: {default: 65536, type: BIGINT, doc: "BigMessagesThreshold: average bytes per execution above which messages are big."}
---#}
with comm_calls as (
    select s.*, greatest(s.bytes_sent, s.bytes_received) / s.executions as avg_bytes
    from {{ ref('comm_summaries') }} as s
    where s.location_id is null
)

select
    callpath_id,
    null::bigint as region_id,
    null::bigint as location_id,
    null::varchar as condition_id,
    comm_s > 0 and avg_bytes > $p_big_message_bytes as condition,
    1.0::double as confidence,
    comm_s / rank_basis.basis_s as severity,
    comm_s as value,
    json_object('executions', executions, 'average_bytes', avg_bytes)::varchar as details
from comm_calls
cross join {{ ref('rank_basis') }} as rank_basis
