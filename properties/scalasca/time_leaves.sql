{#---
kind: pattern
parent: null
unit: s
requires: [trace]
columns: {metric: VARCHAR, callpath_id: BIGINT, location_id: BIGINT, value: DOUBLE}
info: Every call path's time on every location by its leaf time category (comp, mpi_point2point, omp_ibarrier, ...).
description: |
  docs/wait-states.md, time hierarchy: a call path's exclusive time on a
  location goes to one leaf category of metric_tree by its region: comp (not MPI),
  mpi_init_exit (MPI_Init(_thread), MPI_Finalize, MPI_Initialized, MPI_Finalized),
  mpi_mgmt_file, mpi_mgmt_win, mpi_mgmt_comm, mpi_sync_collective (barriers),
  mpi_point2point, mpi_collective, mpi_rma_communication, mpi_io_collective,
  mpi_io_individual; OpenMP barriers, critical sections, lock API calls, ordered,
  taskwait and flush to omp_ebarrier ... omp_flush (parallel regions and loops are
  comp). OpenMP: each thread's fork and join intervals are omp_management at the
  parallel region (taken from the forking thread's enclosing call path), and threads
  idle while the master runs serially or outside a smaller team are
  omp_idle_threads / omp_limited_parallelism (omp_fork_join, omp_idle_time). One row
  per (metric, call path, location), value in seconds. Read by time_cube, which sums
  them up the metric tree, and by the metrics that need a call path's time or
  computation (critical_path_imbalance, the imbalance heuristics).
diagnosis: Not a problem by itself; see time_cube.
---#}
-- every call path's exclusive time per location (callpath_profile sums the region
-- instances)
with profile as (
    select callpath_id, location_id, region_id, excl_s
    from {{ ref('callpath_profile') }}
    where executions > 0
),

{%- if has('openmp') %}

fork_join as (
    select * from {{ ref('omp_fork_join') }}
),
{%- endif %}

-- a thread's exclusive time per call path, the forking thread's fork and join
-- intervals moved out of the call path enclosing the fork
thread_time as (
    select i.callpath_id, i.location_id, c.name, c.role, c.mpi_class, c.omp_class, i.excl_s
    from (
        select callpath_id, location_id, region_id, excl_s from profile
        {%- if has('openmp') %}
        union all
        select f.parent_callpath_id, f.location_id, p.region_id, -(f.fork_s + f.join_s)
        from fork_join as f
        join {{ ref('callpaths') }} as p on f.parent_callpath_id = p.callpath_id
        {%- endif %}
    ) as i
    join {{ ref('region_classes') }} as c using (region_id)
),

leaf_time as (
    select
        callpath_id,
        location_id,
        case
            when omp_class = 'ebarrier' then 'omp_ebarrier'
            when omp_class = 'ibarrier' then 'omp_ibarrier'
            when omp_class = 'critical' then 'omp_critical'
            when omp_class = 'lock_api' then 'omp_lock_api'
            when omp_class = 'ordered' then 'omp_ordered'
            when omp_class = 'taskwait' then 'omp_taskwait'
            when omp_class = 'flush' then 'omp_flush'
            when mpi_class is null then 'comp'
            when name in ('MPI_Init', 'MPI_Init_thread', 'MPI_Finalize', 'MPI_Initialized', 'MPI_Finalized')
                then 'mpi_init_exit'
            when mpi_class = 'io' and role = 'FILE_IO_METADATA' then 'mpi_mgmt_file'
            when mpi_class = 'io' and regexp_matches(name, '_(all|ordered)(_begin|_end)?$') then 'mpi_io_collective'
            when mpi_class = 'io' then 'mpi_io_individual'
            when
                mpi_class = 'rma' and regexp_matches(name, '^MPI_Win_(create|allocate|free|attach|detach)')
                then 'mpi_mgmt_win'
            when mpi_class = 'rma' then 'mpi_rma_communication'
            when mpi_class = 'management' then 'mpi_mgmt_comm'
            when mpi_class = 'sync' then 'mpi_sync_collective'
            when mpi_class = 'p2p' then 'mpi_point2point'
            when mpi_class = 'collective' then 'mpi_collective'
        end as metric,
        sum(excl_s) as value
    from thread_time
    group by all
    {%- if has('openmp') %}

    union all

    select callpath_id, location_id, 'omp_management', sum(fork_s + join_s)
    from fork_join
    group by all

    union all

    select callpath_id, location_id,
        case kind when 'serial' then 'omp_idle_threads' else 'omp_limited_parallelism' end, idle_s
    from {{ ref('omp_idle_time') }}
    {%- endif %}
)

select metric, callpath_id, location_id, value from leaf_time
