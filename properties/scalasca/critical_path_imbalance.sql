{#---
kind: property
parent: critical_path
unit: s
requires: [trace]
info: The part of the critical path's time in a call path beyond the average time of a location there (Scalasca's critical_path_imbalance).
description: |
  Scalasca 2.6 (remapping.spec, PREDERIVED_EXCLUSIVE critical_path_imbalance): for a
  call path c and location l, with CP(c, l) the critical_path of c and its callees on
  l, CP(c) its sum over the locations and T(c) the time of c and its callees over all
  locations less their waiting (Scalasca's list: mpi_finalize_wait, mpi_barrier_wait,
  mpi_latesender, mpi_latereceiver, mpi_earlyreduce, mpi_earlyscan, mpi_latebroadcast,
  mpi_wait_nxn, omp_management, omp_ebarrier_wait, omp_ibarrier_wait,
  omp_lock_contention_critical, omp_lock_contention_api, omp_ordered, omp_idle_threads;
  here: omp_ordered and every wait state under time that waits for a partner, i.e. not
  a completion, and not under another such wait state, whose time holds its own; a
  plug-in's wait state counts as well): where CP(c, l) > 0,
  max(0, (CP(c) - T(c) / N) / CP(c)) * critical_path(c, l), N the number of
  locations. The critical path's share in c above what an average location spends
  there. CONDITION value > 0, CONFIDENCE 1, SEVERITY value / Duration(RankBasis, e).
diagnosis: |
  The critical path spends longer here than an average location: the run waits for
  the slowest instance of this work. Balance it across the locations.
---#}
{% import 'templates/asl.sql' as asl with context %}
{% set imbalance %}
with on_path as (
    select callpath_id, location_id, value from {{ ref('critical_path') }}
    where location_id is not null
),

ancestors as (
    select ancestor_id, descendant_id from {{ ref('callpath_ancestors') }}
),

-- critical_path of each call path with its callees, per location and over all
inclusive as (
    select a.ancestor_id as callpath_id, p.location_id, sum(p.value) as value
    from on_path as p
    join ancestors as a on p.callpath_id = a.descendant_id
    group by all
),

path_totals as (
    select callpath_id, sum(value) as value from inclusive group by all
),

-- every location's time without waiting, per call path (its own, not its callees')
busy as (
    select callpath_id, value from {{ ref('time_leaves') }}
    union all
    select callpath_id, -value from {{ ref('time_leaves') }} where metric = 'omp_ordered'
    {%- for entry in catalog_tree(['time']) if entry.waiting and entry.evaluable %}
    union all
    select callpath_id, -value from {{ ref(entry.name) }} where location_id is not null
    {%- endfor %}
),

busy_totals as (
    select a.ancestor_id as callpath_id, sum(b.value) as value
    from busy as b
    join ancestors as a on b.callpath_id = a.descendant_id
    group by all
),

locations as (
    select count(*) as n from {{ ref('locations') }} where location_type = 'CPU_THREAD'
)

select
    p.callpath_id,
    p.location_id,
    greatest(0, (t.value - b.value / locations.n) / t.value) * p.value as value
from on_path as p
join inclusive as i using (callpath_id, location_id)
join path_totals as t using (callpath_id)
join busy_totals as b using (callpath_id)
cross join locations
where i.value > 0 and greatest(0, (t.value - b.value / locations.n) / t.value) * p.value != 0
{% endset %}
{{ asl.sum_matches('(' ~ imbalance ~ ')', 'value') }}
