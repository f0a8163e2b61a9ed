{#---
kind: pattern
parent: mpi_collective_timings
unit: s
requires: [trace]
info: Scalasca's collective and management wait states, one row per (metric, instance, rank) that waited.
description: |
  reference/wait-states.md, with latest = max B and earliest_end = min X over the
  instance (mpi_collective_timings), per rank (value when positive):
  mpi_barrier_wait / mpi_wait_nxn (MPI_Barrier / n-to-n collectives):
    min(latest, X) - B;
  mpi_barrier_completion / mpi_nxn_completion: X - max(earliest_end, min(latest, X));
  mpi_earlyreduce (Reduce, Gather(v); root only): min(latest B of the senders, X) - B;
  mpi_earlyscan (Scan, Exscan): min(max B over ranks 0..me, X) - B;
  mpi_latebroadcast (Bcast, Scatter(v); non-root ranks): min(B of the root, X) - B;
  mpi_init_completion (MPI_Init(_thread) over all ranks, Enter E / Leave L):
    L - max(min L, min(max E, L));
  mpi_finalize_wait (MPI_Finalize over all ranks): min(max E, L) - E.
  Columns: metric, callpath_id, location_id (the rank's call), comm_id and
  instance_index (NULL for Init/Finalize), idle_s.
diagnosis: See the metric of each row.
---#}
with timings as (
    select * from {{ ref('mpi_collective_timings') }}
),

-- MPI_Init(_thread) and MPI_Finalize over all ranks, with their Enter / Leave
management as (
    select
        i.callpath_id,
        i.location_id,
        i.enter_time,
        i.leave_time,
        case when r.name = 'MPI_Finalize' then 'finalize' else 'init' end as call,
        max(i.enter_time) over call_kind as latest_enter,
        min(i.leave_time) over call_kind as earliest_leave
    from {{ ref('region_instances') }} as i
    join {{ ref('regions') }} as r using (region_id)
    where r.name in ('MPI_Init', 'MPI_Init_thread', 'MPI_Finalize')
    window call_kind as (partition by r.name = 'MPI_Finalize')
),

waits as (
    select
        case class when 'barrier' then 'mpi_barrier_wait' else 'mpi_wait_nxn' end as metric,
        callpath_id, location_id, comm_id, instance_index,
        least(latest_begin, end_time)::bigint - begin_time::bigint as ticks
    from timings
    where class in ('barrier', 'nxn')

    union all

    select
        case class when 'barrier' then 'mpi_barrier_completion' else 'mpi_nxn_completion' end,
        callpath_id, location_id, comm_id, instance_index,
        end_time::bigint - greatest(earliest_end, least(latest_begin, end_time))::bigint
    from timings
    where class in ('barrier', 'nxn')

    union all

    select 'mpi_earlyreduce', callpath_id, location_id, comm_id, instance_index,
        least(latest_sender_begin, end_time)::bigint - begin_time::bigint
    from timings
    where class = 'n_to_1' and is_root

    union all

    select 'mpi_earlyscan', callpath_id, location_id, comm_id, instance_index,
        least(scan_latest_begin, end_time)::bigint - begin_time::bigint
    from (
        select *, max(begin_time) over (partition by comm_id, instance_index order by comm_rank) as scan_latest_begin
        from timings
        where class = 'scan'
    )

    union all

    select 'mpi_latebroadcast', callpath_id, location_id, comm_id, instance_index,
        least(root_begin, end_time)::bigint - begin_time::bigint
    from timings
    where class = '1_to_n' and not is_root

    union all

    select 'mpi_init_completion', callpath_id, location_id, null, null,
        leave_time::bigint - greatest(earliest_leave, least(latest_enter, leave_time))::bigint
    from management
    where call = 'init'

    union all

    select 'mpi_finalize_wait', callpath_id, location_id, null, null,
        least(latest_enter, leave_time)::bigint - enter_time::bigint
    from management
    where call = 'finalize'
)

select w.metric, w.callpath_id, w.location_id, w.comm_id, w.instance_index, w.ticks / x.timer_resolution as idle_s
from waits as w
cross join {{ ref('experiments') }} as x
where w.ticks > 0
