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
  SEVERITY cost / Duration(RankBasis, e, p). One row per (function, process): where p
  never calls r, Summary(r, e, p) is none and so are cost, condition and severity.
diagnosis: |
  This process sends many small messages through this function: aggregate them.
params:
  p_small_comm_s: {default: 1.0e-5, type: DOUBLE, doc: "SmallMessagesThreshold: time per call (s) below which a communication is small."}
---#}
-- ASL's Function r: an MPI communication function the run entered; one row per process,
-- also where p never calls r (no summary: cost and condition NULL)
with comm_functions as (
    select region_id
    from {{ ref('region_classes') }}
    where is_comm and region_id in (select region_id from {{ ref('callpaths') }})
),

per_process as (
    select region_id, location_id, sum(incl_s) as cost, sum(executions) as passes
    from {{ ref('comm_summaries') }}
    where location_id is not null
    group by all
)

select
    null::bigint as callpath_id,
    f.region_id,
    p.location_id,
    null::varchar as condition_id,
    s.cost > 0 and s.cost / s.passes < $p_small_comm_s as condition,
    1.0::double as confidence,
    s.cost / b.basis_s as severity,
    s.cost as value,
    case when s.passes > 0 then json_object('calls', s.passes, 'per_call_s', s.cost / s.passes)::varchar end as details
from comm_functions as f
cross join {{ ref('processes') }} as p
left join per_process as s on f.region_id = s.region_id and p.location_id = s.location_id
left join {{ ref('rank_basis_per_process') }} as b on p.location_id = b.location_id
