{#---
kind: property
parent: comm_cost
unit: s
info: The MPI communication function with the largest time over all its calls and processes.
description: |
  ASL §3.4.1.5 DominatingCommFunction(MPIFunction r): CommSummaries = the summaries
  over all processes of the MPI communication functions (MPICommFunc: point-to-point
  and collectives, not MPI_Barrier), a function's Incl summed over all its call paths;
  MaxCommTime = MAX Incl. CONDITION Duration(r, e) == MaxCommTime, CONFIDENCE 1,
  SEVERITY MaxCommTime / Duration(RankBasis, e). One row per communication function
  (region, no call path), value its Incl; only the dominating one's condition holds.
diagnosis: |
  This MPI function dominates the communication time: look at its call sites
  (dominating_comm_call) and at the wait states inside it.
---#}
{% import 'templates/asl.sql' as asl with context %}
with comm_functions as (
    select s.region_id, s.location_id, sum(s.incl_s) as value
    from {{ ref('comm_summaries') }} as s
    where s.location_id is not null
    group by all
),

per_function as (
    select null::bigint as callpath_id, region_id, sum(value) as value, {{ asl.distribution() }} as details
    from comm_functions
    group by region_id
)

{{ asl.dominating('per_function') }}
