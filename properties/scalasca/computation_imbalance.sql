{#---
kind: pattern
parent: null
unit: s
requires: [trace]
columns: {callpath_id: BIGINT, location_id: BIGINT, average_s: DOUBLE, difference_s: DOUBLE,
  compared: BOOLEAN, visits: BIGINT, visitors: BIGINT, locations: BIGINT, by_visits: BOOLEAN}
info: Every location's computation per call path against the average (Scalasca's imbalance heuristics).
description: |
  Scalasca 2.6's remapper (CubeLib cube_remap2, remap2_calls.cpp, hard-coded there):
  average_s = the call path's comp (time_leaves) over all locations divided by the
  number of processes, or, for a call path in an OpenMP parallel region
  (parallel_callpaths) of a run with OpenMP, by the number of threads; difference_s =
  the location's comp there - average_s. compared: the location counts (a process's
  master thread, or any thread in a parallel region of a run with OpenMP). visits:
  the location's executions of the call path; visitors: the locations that executed
  it; locations: all (CPU threads). by_visits: the visit heuristics apply to the call
  path (average_s != 0, in a parallel region if the run has OpenMP, and not every
  location executed it). One row per (call path, location).
diagnosis: Not a problem by itself; see imbalance.
---#}
with call_paths as (
    select c.callpath_id, c.callpath_id in (select callpath_id from {{ ref('parallel_callpaths') }}) as in_parallel
    from {{ ref('callpaths') }} as c
),

run as (
    select
        (select count(*) from {{ ref('locations') }} where location_type = 'CPU_THREAD') as threads,
        (select count(distinct rank) from {{ ref('locations') }} where location_type = 'CPU_THREAD') as processes,
        (select coalesce(bool_or(omp_class is not null), false) from {{ ref('region_classes') }}) as with_openmp
),

threads as (
    select location_id, thread from {{ ref('locations') }} where location_type = 'CPU_THREAD'
),

-- sums in a fixed order (of the values): a parallel sum's order, and so its last bits,
-- would vary from run to run, and with them which differences are 0
computation as (
    select callpath_id, location_id, sum(value order by value) as comp_s
    from {{ ref('time_leaves') }}
    where metric = 'comp'
    group by all
),

averages as (
    select
        c.callpath_id,
        c.in_parallel and run.with_openmp as in_parallel,
        coalesce(sum(m.comp_s order by m.comp_s), 0)
        / any_value(case when c.in_parallel and run.with_openmp then run.threads else run.processes end)
            as average_s
    from call_paths as c
    cross join run
    left join computation as m using (callpath_id)
    group by all
),

cells as (
    select
        a.callpath_id,
        t.location_id,
        a.average_s,
        coalesce(m.comp_s, 0) - a.average_s as difference_s,
        t.thread = 0 or a.in_parallel as compared,
        coalesce(p.executions, 0) as visits,
        a.in_parallel or not run.with_openmp as in_scope,
        run.threads as locations
    from averages as a
    cross join threads as t
    cross join run
    left join computation as m using (callpath_id, location_id)
    left join {{ ref('callpath_profile') }} as p using (callpath_id, location_id)
)

select
    callpath_id,
    location_id,
    average_s,
    difference_s,
    compared,
    visits,
    count(*) filter (where visits != 0) over (partition by callpath_id) as visitors,
    locations,
    average_s != 0 and in_scope and count(*) filter (where visits != 0) over (partition by callpath_id) != locations
        as by_visits
from cells
