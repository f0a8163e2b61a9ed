{#---
kind: property
parent: comm_cost
unit: s
info: A communication call whose time differs strongly between the processes.
description: |
  ASL §3.4.1.11 UnevenMpDistribution(FuncCall r): deviation = the standard deviation
  (population) of Incl over ProcessProfiles(r, e), the processes that executed r.
  CONDITION the call is an MPI communication function AND deviation >
  uneven_threshold ($p_uneven_threshold) * Summary(r, e).Incl / e.NrProcessors,
  CONFIDENCE 1, SEVERITY Summary(r, e).Incl / Duration(RankBasis, e).
  details: the deviation and the distribution of Incl over the processes.
diagnosis: |
  Some processes spend much longer in this communication than others: balance
  the work before it or the data each process exchanges.
params:
  p_uneven_threshold: {default: 0.1, type: DOUBLE, doc: "uneven_threshold: deviation allowed, relative to the mean Incl per process."}
---#}
{% import 'templates/asl.sql' as asl with context %}
with comm_calls as (
    select s.callpath_id, s.location_id, s.incl_s as value
    from {{ ref('comm_summaries') }} as s
    where s.location_id is not null
),

per_call as (
    select
        callpath_id,
        sum(value) as value,
        stddev_pop(value) as deviation,
        {{ asl.distribution() }} as details
    from comm_calls
    group by callpath_id
),

processes as (
    select count(*) as n from {{ ref('processes') }}
)

select
    callpath_id,
    null::bigint as region_id,
    null::bigint as location_id,
    null::varchar as condition_id,
    deviation > $p_uneven_threshold * value / processes.n as condition,
    1.0::double as confidence,
    value / rank_basis.basis_s as severity,
    value,
    json_merge_patch(details, json_object('deviation', deviation))::varchar as details
from per_call
cross join processes
cross join {{ ref('rank_basis') }} as rank_basis
