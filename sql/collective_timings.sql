-- Every location's part in every collective instance, with the instance's
-- reference times (docs/wait-states.md, collectives): collective_instances
-- (the k-th collective on a communicator on every member is one instance;
-- B / X = MpiCollectiveBegin / End) on communicators of more than one rank,
-- without calls that move no data (except barriers).
-- Columns: callpath_id of the location's call, location_id, comm_id,
-- instance_index, comm_rank, coll_op, class (barrier, nxn, n_to_1, 1_to_n,
-- scan), is_root, begin_time / end_time (B, X) and the instance's latest_begin
-- (max B), earliest_end (min X), root_begin (B of the root) and
-- latest_sender_begin (max B over the ranks other than the root); raw ticks.
with instances as (
    select
        *,
        case
            when coll_op = 'BARRIER' then 'barrier'
            when coll_op in ('ALLREDUCE', 'ALLGATHER', 'ALLGATHERV', 'ALLTOALL', 'ALLTOALLV', 'ALLTOALLW',
                             'REDUCE_SCATTER', 'REDUCE_SCATTER_BLOCK') then 'nxn'
            when coll_op in ('REDUCE', 'GATHER', 'GATHERV') then 'n_to_1'
            when coll_op in ('BCAST', 'SCATTER', 'SCATTERV') then '1_to_n'
            when coll_op in ('SCAN', 'EXSCAN') then 'scan'
        end as class
    from {{ ref('collective_instances') }}
    where comm_size > 1 and (coll_op = 'BARRIER' or bytes_sent + bytes_received > 0)
)

select
    experiment_id,
    call_callpath_id as callpath_id,
    location_id,
    comm_id,
    instance_index,
    comm_rank,
    coll_op,
    class,
    location_id = root_location_id as is_root,
    begin_time,
    end_time,
    max(begin_time) over instance as latest_begin,
    min(end_time) over instance as earliest_end,
    max(case when location_id = root_location_id then begin_time end) over instance as root_begin,
    max(case when location_id <> root_location_id then begin_time end) over instance as latest_sender_begin
from instances
window instance as (partition by experiment_id, comm_id, instance_index)
