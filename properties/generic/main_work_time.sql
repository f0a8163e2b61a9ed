{#---
kind: property
parent: null
unit: s
problem: false
info: The region holding most of the run outside MPI_Init and MPI_Finalize, the rank basis to rank problems against.
description: |
  Of the regions of the program's own code (not MPI, OpenMP, threads or the measurement
  system) in the rank basis none of whose outermost call paths contains a call path of
  init_finalize_paths, the one with the most time: per CPU location the inclusive time of
  its outermost call paths (a thread without them counts its process's time there, as
  location_time does), summed over locations; of equal times the shallowest, then the
  first by name. One row at that region over all processes. CONDITION its share >= 0.8 (it encloses the main work),
  CONFIDENCE 1, SEVERITY value / (location_time - init_finalize_time), its share of the
  run outside initialisation and finalisation: the rank basis --rank-basis REGION
  that the report suggests when init_finalize_time is large.
diagnosis: Not a problem; rank the problems against this region with cosydb report --rank-basis REGION.
---#}
{% import 'templates/threads.sql' as threads with context %}
with in_basis as (
    -- the call paths of the program's own code at or below a rank-basis call path
    select c.callpath_id, c.region_id, c.depth, r.name
    from {{ ref('callpaths') }} as c
    join {{ ref('regions') }} as r using (region_id)
    where r.paradigm not in ('MPI', 'OPENMP', 'PTHREAD', 'MEASUREMENT_SYSTEM')
        and exists (
            select 1
            from {{ ref('callpath_ancestors') }} as a
            join {{ ref('rank_basis_paths') }} as b on a.ancestor_id = b.callpath_id
            where a.descendant_id = c.callpath_id
        )
),

-- the call paths that contain initialisation or finalisation (themselves included)
with_phases as (
    select distinct a.ancestor_id as callpath_id
    from {{ ref('callpath_ancestors') }} as a
    join {{ ref('init_finalize_paths') }} as f on a.descendant_id = f.callpath_id
),

-- the outermost call paths of each region (its instances' time counted once, as the
-- rank basis counts it), and whether they contain initialisation or finalisation
outermost as (
    select
        p.callpath_id,
        p.region_id,
        p.depth,
        p.name,
        w.callpath_id is not null as has_phase
    from in_basis as p
    left join with_phases as w using (callpath_id)
    where not exists (
        select 1
        from {{ ref('callpath_ancestors') }} as a
        join {{ ref('callpaths') }} as up on a.ancestor_id = up.callpath_id
        where a.descendant_id = p.callpath_id and a.distance > 0 and up.region_id = p.region_id
    )
),

candidates as (
    select region_id, min(depth) as depth, min(name) as region_name
    from outermost
    group by region_id
    having not bool_or(has_phase)
),

own as (
    select o.region_id, c.location_id, sum(c.incl_s) as time_s
    from outermost as o
    join {{ ref('callpath_profile') }} as c using (callpath_id)
    where o.region_id in (select region_id from candidates)
    group by all
),

per_location as (
    {{ threads.time_per_thread('own', 'time_s', 'candidates', 'region_id') | indent(4) }}
),

largest as (
    select p.region_id, sum(p.time_s order by p.time_s) as time_s
    from per_location as p
    join candidates as k using (region_id)
    group by p.region_id, k.depth, k.region_name
    having sum(p.time_s) > 0
    order by time_s desc, k.depth asc, k.region_name asc
    limit 1
),

-- the run outside initialisation and finalisation: location_time less init_finalize_time
rest as (
    select
        (select value from {{ ref('location_time') }} where location_id is null)
        - coalesce((select sum(value) from {{ ref('init_finalize_time') }} where location_id is null), 0) as time_s
)

select
    null::bigint as callpath_id,
    w.region_id,
    null::bigint as location_id,
    null::varchar as condition_id,
    w.time_s >= 0.8 * r.time_s as condition,
    1.0 as confidence,
    w.time_s / nullif(r.time_s, 0) as severity,
    w.time_s as value,
    null::varchar as details
from largest as w, rest as r
