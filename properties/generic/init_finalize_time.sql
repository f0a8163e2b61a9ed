{#---
kind: property
parent: null
unit: s
problem: false
info: Time of every location in MPI_Init, MPI_Init_thread and MPI_Finalize, as a share of the rank basis.
description: |
  Per call path of init_finalize_paths and CPU location, its inclusive time there
  (callpath_profile); a thread without the call path of its own (an OpenMP worker,
  idle while its master initialises MPI) counts its process's time there, as
  location_time counts it. One row per (call path, location) with time and one per
  call path over all processes (their sum). CONDITION value > 0, CONFIDENCE 1,
  SEVERITY value / location_time (the report's denominator): the share of the run
  spent setting up and tearing down MPI, which dominates short runs; main_work_time
  names the rank basis without them.
diagnosis: |
  Not a problem of the program but of the measurement: a short run is mostly MPI_Init. Rank
  the problems against the main work instead: cosydb report --rank-basis REGION, REGION
  as main_work_time names it.
---#}
{% import 'templates/threads.sql' as threads with context %}
with own as (
    select p.callpath_id, c.location_id, c.incl_s
    from {{ ref('init_finalize_paths') }} as p
    join {{ ref('callpath_profile') }} as c using (callpath_id)
),

per_location as (
    {{ threads.time_per_thread('own', 'incl_s', ref('init_finalize_paths'), 'callpath_id') | indent(4) }}
),

basis as (
    select value as time_s from {{ ref('location_time') }} where location_id is null
),

rows as (
    select callpath_id, location_id, time_s from per_location where time_s > 0

    union all

    select callpath_id, null, sum(time_s order by time_s)
    from per_location
    group by callpath_id
    having sum(time_s) > 0
)

select
    r.callpath_id,
    null::bigint as region_id,
    r.location_id,
    null::varchar as condition_id,
    true as condition,
    1.0 as confidence,
    r.time_s / nullif(b.time_s, 0) as severity,
    r.time_s as value,
    null::varchar as details
from rows as r, basis as b
