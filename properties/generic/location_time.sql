{#---
kind: property
parent: null
unit: s
problem: false
info: Time of every location (threads included) in the rank basis, the report's denominator for times.
description: |
  Per CPU location, its time in the rank basis: the inclusive time of its own
  rank_basis_paths (callpath_profile); a thread without such call paths of its own (an
  OpenMP worker, whose parallel regions hang below its master's call paths) counts the
  time of its process's thread that has them, as Scalasca's cube counts a worker (it works
  or idles below the master's call paths): for the whole run, the sum over locations is
  Scalasca's total time. One row per location and one over all processes (their sum), at
  no call path. CONDITION true, CONFIDENCE 1, SEVERITY the location's share of the sum.
  The report ranks a time problem by its value / this sum (its severity column), beside
  the property's own ASL severity (Duration(RankBasis, e), over processes).
diagnosis: Not a problem; the denominator of the report's severities (choose it with --rank-basis).
---#}
{% import 'templates/threads.sql' as threads with context %}
with own as (
    select location_id, basis_s
    from {{ ref('rank_basis_per_process') }}
),

per_location as (
    {{ threads.time_per_thread('own', 'basis_s') | indent(4) }}
),

total as (
    select sum(time_s) as time_s from per_location
)

select
    null::bigint as callpath_id,
    null::bigint as region_id,
    p.location_id,
    null::varchar as condition_id,
    true as condition,
    1.0 as confidence,
    p.time_s / nullif(t.time_s, 0) as severity,
    p.time_s as value,
    null::varchar as details
from per_location as p, total as t

union all

select
    null::bigint,
    null::bigint,
    null::bigint,
    null::varchar,
    true,
    1.0,
    case when t.time_s > 0 then 1.0 end,
    t.time_s,
    null::varchar
from total as t
