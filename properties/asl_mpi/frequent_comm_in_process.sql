{#---
kind: property
parent: frequent_communication
unit: s
info: An MPI communication function that one process calls often with little time per call.
description: |
  ASL §3.4.1.16 FrequentCommInProcess(Function r, Process p): cost = Summary(r, e, p).Incl
  of the MPI communication function r (over all its call paths) on process p.
  CONDITION cost > 0 AND cost / Summary(r, e, p).NumPasses < SmallMessagesThreshold
  ($p_small_comm_s, seconds per call), CONFIDENCE 1,
  SEVERITY cost / Duration(RankBasis, e, p). One row per (function, process).
diagnosis: |
  This process sends many small messages through this function: aggregate them.
params:
  p_small_comm_s: {default: 1.0e-5, type: DOUBLE, doc: "SmallMessagesThreshold: time per call (s) below which a communication is small."}
---#}
with comm_functions as (
    select s.region_id, s.location_id, sum(s.incl_s) as cost, sum(s.executions) as passes
    from {{ ref('comm_summaries') }} as s
    where s.location_id is not null
    group by all
)

select
    null::bigint as callpath_id,
    f.region_id,
    f.location_id,
    null::varchar as condition_id,
    f.cost > 0 and f.cost / f.passes < $p_small_comm_s as condition,
    1.0::double as confidence,
    f.cost / b.basis_s as severity,
    f.cost as value,
    json_object('calls', f.passes, 'per_call_s', f.cost / f.passes)::varchar as details
from comm_functions as f
join {{ ref('rank_basis_per_process') }} as b using (location_id)
