{#---
kind: property
parent: sync_cost
unit: s
info: An MPI_Barrier call where processes arrive at different times.
description: |
  ASL §3.4.1.12 LoadImbalanceAtBarrier(FuncCall r), a property with two conditions,
  for call paths of MPI_Barrier:
  COND1 MaxWait = max - min of Incl over the processes (ProcessProfiles) > 0,
  severity MaxWait / (Duration(RankBasis, e) / e.NrProcessors);
  COND2 Summary(r, e).IdleTime > 0 (idle_time), severity IdleTime / Duration(RankBasis, e).
  As ASL intends, COND1 alone is evaluated where idle times cannot be measured (a profile).
  CONFIDENCE 1; SEVERITY the MAX over the conditions that hold; condition_id names
  them; value: MaxWait or IdleTime, whichever is more severe.
diagnosis: |
  Processes reach the barrier at different times: balance the work before it.
---#}
{% import 'templates/asl.sql' as asl with context %}
with barrier_calls as (
    select s.callpath_id, s.location_id, s.incl_s
    from {{ ref('mpi_summary') }} as s
    join {{ ref('region_classes') }} as c using (region_id)
    where c.mpi_class = 'sync' and s.location_id is not null
),

{% if has('trace') %}
idle as (
    select callpath_id, location_id, idle_s
    from {{ ref('idle_time') }}
    where callpath_id in (select callpath_id from barrier_calls)
),
{% endif %}

processes as (
    select count(*) as n from {{ ref('processes') }}
),

conditions as (
    select
        callpath_id,
        'COND1' as condition_id,
        max(incl_s) - min(incl_s) as value,
        {{ asl.distribution('incl_s') }} as details
    from barrier_calls
    group by callpath_id
    {% if has('trace') %}

    union all

    select callpath_id, 'COND2', sum(idle_s), {{ asl.distribution('idle_s') }}
    from idle
    group by callpath_id
    {% endif %}
),

rated as (
    select
        c.callpath_id,
        null::bigint as region_id,
        null::bigint as location_id,
        c.condition_id,
        c.value > 0 as condition,
        1.0::double as confidence,
        case c.condition_id
            when 'COND1' then c.value / (rank_basis.basis_s / processes.n)
            else c.value / rank_basis.basis_s
        end as severity,
        c.value,
        c.details
    from conditions as c
    cross join processes
    cross join {{ ref('rank_basis') }} as rank_basis
)

{{ asl.max_over_conditions('rated') }}
