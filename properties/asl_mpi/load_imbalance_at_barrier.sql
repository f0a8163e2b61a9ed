{#---
kind: property
parent: sync_cost
unit: s
wait_state: true
info: An MPI_Barrier call where processes arrive at different times.
description: |
  ASL §3.4.1.12 LoadImbalanceAtBarrier(FuncCall r), a property with two conditions,
  for call paths of MPI_Barrier:
  COND1 MaxWait = max - min of Incl over the processes (ProcessProfiles) > 0,
  severity MaxWait / (Duration(RankBasis, e) / e.NrProcessors);
  COND2 Summary(r, e).IdleTime > 0 (the pattern idle_time), severity IdleTime / Duration(RankBasis, e).
  As ASL intends, COND1 alone is evaluated where idle times cannot be measured (a profile).
  CONFIDENCE 1; SEVERITY the MAX over the conditions that hold; condition_id names
  them; value: MaxWait or IdleTime, whichever is more severe.
diagnosis: |
  Processes reach the barrier at different times: balance the work before it.
---#}
{% import 'templates/asl.sql' as asl with context %}
with barrier_calls as (
    select
        s.callpath_id,
        s.location_id,
        s.incl_s,
        -- IdleTime: NULL on a profile, which holds no wait states
        case when x.is_profile then null else coalesce(i.idle_s, 0) end as idle_time_s
    from {{ ref('mpi_summary') }} as s
    join {{ ref('region_classes') }} as c using (region_id)
    cross join {{ ref('experiments') }} as x
    left join {{ ref('idle_time') }} as i using (callpath_id, location_id)
    where c.mpi_class = 'sync' and s.location_id is not null
),

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

    union all

    -- only where IdleTime is measured (NULL on a profile)
    select callpath_id, 'COND2', sum(idle_time_s), {{ asl.distribution('idle_time_s') }}
    from barrier_calls
    where idle_time_s is not null
    group by callpath_id
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
