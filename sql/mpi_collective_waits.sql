-- Scalasca's collective and MPI management wait states (docs/wait-states.md):
-- one row per (metric, collective instance or Init/Finalize, location) that
-- waited, idle_s > 0 (seconds).
--
-- Collectives: the instances of collective_timings; B / X = MpiCollectiveBegin /
-- End of the location's call, latest = max B and earliest_end = min X over the
-- instance. Per location:
--   mpi_barrier_wait / mpi_wait_nxn (MPI_Barrier / Allreduce, Allgather(v),
--     Alltoall(v/w), Reduce_scatter(_block)):                 min(latest, X) - B
--   mpi_barrier_completion / mpi_nxn_completion:  X - max(earliest_end, min(latest, X))
--   mpi_earlyreduce (Reduce, Gather(v); root only):  min(latest B of the others, X) - B
--   mpi_earlyscan (Scan, Exscan):               min(max B over ranks 0..me, X) - B
--   mpi_latebroadcast (Bcast, Scatter(v); non-root ranks):   min(B of the root, X) - B
-- Management, over all ranks with Enter E / Leave L of the call:
--   mpi_init_completion (MPI_Init(_thread)):   L - max(min L, min(max E, L))
--   mpi_finalize_wait (MPI_Finalize):          min(max E, L) - E
--
-- Columns: metric, callpath_id / location_id of the location's call, comm_id and
-- instance_index (NULL for Init / Finalize), idle_s. Read by the Scalasca
-- pattern mpi_collective_wait_matches.
with timings as (
    select * from {{ ref('collective_timings') }}
),

-- MPI_Init(_thread) and MPI_Finalize over all ranks, with their Enter / Leave
management as (
    select
        i.experiment_id,
        i.callpath_id,
        i.location_id,
        i.enter_time,
        i.leave_time,
        case when r.name = 'MPI_Finalize' then 'finalize' else 'init' end as call,
        max(i.enter_time) over call_kind as latest_enter,
        min(i.leave_time) over call_kind as earliest_leave
    from {{ ref('region_instances') }} as i
    join {{ ref('regions') }} as r
        on i.experiment_id = r.experiment_id and i.region_id = r.region_id
    where r.name in ('MPI_Init', 'MPI_Init_thread', 'MPI_Finalize')
    window call_kind as (partition by i.experiment_id, r.name = 'MPI_Finalize')
),

waits as (
    select
        case class when 'barrier' then 'mpi_barrier_wait' else 'mpi_wait_nxn' end as metric,
        experiment_id, callpath_id, location_id, comm_id, instance_index,
        least(latest_begin, end_time)::bigint - begin_time::bigint as ticks
    from timings
    where class in ('barrier', 'nxn')

    union all

    select
        case class when 'barrier' then 'mpi_barrier_completion' else 'mpi_nxn_completion' end,
        experiment_id, callpath_id, location_id, comm_id, instance_index,
        end_time::bigint - greatest(earliest_end, least(latest_begin, end_time))::bigint
    from timings
    where class in ('barrier', 'nxn')

    union all

    select 'mpi_earlyreduce', experiment_id, callpath_id, location_id, comm_id, instance_index,
        least(latest_sender_begin, end_time)::bigint - begin_time::bigint
    from timings
    where class = 'n_to_1' and is_root

    union all

    select 'mpi_earlyscan', experiment_id, callpath_id, location_id, comm_id, instance_index,
        least(scan_latest_begin, end_time)::bigint - begin_time::bigint
    from (
        select
            *,
            max(begin_time) over (partition by experiment_id, comm_id, instance_index order by comm_rank)
                as scan_latest_begin
        from timings
        where class = 'scan'
    ) as s

    union all

    select 'mpi_latebroadcast', experiment_id, callpath_id, location_id, comm_id, instance_index,
        least(root_begin, end_time)::bigint - begin_time::bigint
    from timings
    where class = '1_to_n' and not is_root

    union all

    select 'mpi_init_completion', experiment_id, callpath_id, location_id, null, null,
        leave_time::bigint - greatest(earliest_leave, least(latest_enter, leave_time))::bigint
    from management
    where call = 'init'

    union all

    select 'mpi_finalize_wait', experiment_id, callpath_id, location_id, null, null,
        least(latest_enter, leave_time)::bigint - enter_time::bigint
    from management
    where call = 'finalize'
)

select
    w.metric,
    w.experiment_id,
    w.callpath_id,
    w.location_id,
    w.comm_id,
    w.instance_index,
    w.ticks / x.timer_resolution as idle_s
from waits as w
join {{ ref('experiments') }} as x using (experiment_id)
where w.ticks > 0
