-- Scalasca's synchronisation points (src/scout/SynchpointHandler.cpp, MPI.pattern,
-- OMP.pattern of Scalasca 2.6): the events where one location may have waited
-- for another, the joints of the critical path and of the delay analysis. One
-- row per (location, event):
--   INIT / FINALIZE  the Leave of the first MPI_Init(_thread) / MPI_Finalize of
--                    a rank; FINALIZE waits min(latest E, L) - E, latest E the
--                    last Enter of MPI_Finalize over all ranks (ties: lowest rank)
--   COLL             the MpiCollectiveEnd (X) of a collective on more than one
--                    rank; wait = max(0, min(B_target, X) - B), B the
--                    MpiCollectiveBegin. Target: barrier and N-to-N the rank
--                    that began last (N-to-N whose earliest X precedes the last B:
--                    the last rank that sent data); 1-to-N the root; N-to-1 the
--                    last sender. Which ranks synchronise: every rank of a barrier
--                    or fully overlapping N-to-N; else the ranks that receive data
--                    and began before the target, plus the target (N-to-N), or the
--                    root when some rank waited for it (1-to-N), or the root and
--                    the last sender when the root began first (N-to-1). Scan,
--                    Exscan, Alltoallv/w and collectives without payload (N-to-N:
--                    none on any rank; 1-to-N: the root sends none; N-to-1: the
--                    root receives none) are no synchronisation points.
--   LS / LS_SEND     a Late Sender wait (mpi_latesender_waits: the receive event
--                    of the call's largest wait) and the send it waited for
--   LR / LR_RECV     a Late Receiver wait at the send-completing event
--                    (mpi_latereceiver_waits) and the event that posted the
--                    receive (unless that is itself a Late Sender wait)
--   OMPBAR           the Leave of an OpenMP barrier inside a parallel region
--                    (omp_barrier_instances); wait = latest E - E of the team
--   FORK             the Enter of a thread's parallel-region instance
--
-- split_pos orders a point among its location's time increments
-- (time_increments.pos = 2 * seq of the event recording it): an increment lies
-- before the point when pos < split_pos. 2 * seq for MPI events, 2 * seq - 1 for
-- the Leaves of INIT, FINALIZE and OMPBAR (their call's own time lies after),
-- 2 * seq + 1 for FORK (the Enter's own interval lies before).
-- Columns: location_id, seq, split_pos, kind, wait_s (seconds, >= 0),
-- callpath_id of the call holding the event, call_enter_s (its Enter, seconds
-- since the global offset), target_location_id / target_seq (LS, LR, COLL: the
-- partner's point of the same operation), team_location_id / team_seq /
-- barrier_index (OMPBAR, FORK: the team's forking thread and fork event, and
-- which barrier of the team).
-- For the delay analysis (SynchpointInfo, src/scout/scout_types.h):
--   total_s         the call's time L - E (FORK: the thread's fork idle time,
--                   max(0, E - fork))
--   completion_s    the part of the call after the synchronisation: LS
--                   max(0, L(recv call) - L(send call)); LS_SEND max(0, L(send
--                   call) - L(recv call)); LR L(send call) - L(posting call) if
--                   that is <= 0, else 0 (Scalasca's sign, MPI.pattern,
--                   MPI_LATERECEIVER); LR_RECV max(0, L(posting call) - L(send
--                   call)); COLL, INIT, FINALIZE max(0, L - max(earliest L,
--                   min(target's begin, L))), earliest over the synchronising
--                   ranks (1-to-N: the waiting ones); OMPBAR 0; FORK E - the
--                   team's earliest E
--   partner_ranks   the MPI ranks it synchronises with (SynchpointHandler's sync
--                   ranks): the partner of LS and LR points, every rank at INIT
--                   and FINALIZE, every synchronising rank of a barrier or N-to-N
--                   (NULL where that is every rank of the run: no list of all
--                   ranks on every rank's point), at 1-to-N and N-to-1 the root's
--                   partners for the root and the root for the others; none ([])
--                   for OpenMP points
--   coll_class, comm_id, instance_index
--                   a COLL point's class (barrier, n2n, 12n, n21) and instance
--   point_index     the point's ordinal on its location (1, 2, ... in event order)
--   waits_to_s      the location's waiting at its points up to and including
--                   this one (seconds)
--   waiting_points_to
--                   how many of the location's points up to and including this
--                   one waited (wait_s > 0; exact, unlike a sum of seconds)
{{ config(materialized='table') }}
with experiments as (
    select experiment_id, global_offset, timer_resolution from {{ ref('experiments') }}
),

ranks as (
    select experiment_id, location_id, rank from {{ ref('locations') }}
),

-- not materialized: a copy of every region instance outgrew the load's memory budget
-- on large traces (30M events: 10.5M rows); each use reads the rows it joins
instances as not materialized (
    select
        experiment_id, location_id, enter_seq, leave_seq, region_id, callpath_id, enter_s, leave_s
    from {{ ref('region_instances') }}
),

-- the first MPI_Init(_thread) and MPI_Finalize of every rank's master thread
management as (
    select
        i.experiment_id,
        i.location_id,
        i.enter_seq,
        i.leave_seq,
        i.region_id,
        i.callpath_id,
        i.enter_s,
        i.leave_s,
        l.rank,
        case when r.name = 'MPI_Finalize' then 'FINALIZE' else 'INIT' end as kind
    from instances as i
    join {{ ref('regions') }} as r using (experiment_id, region_id)
    join {{ ref('locations') }} as l using (experiment_id, location_id)
    where r.name in ('MPI_Init', 'MPI_Init_thread', 'MPI_Finalize') and l.thread = 0
    qualify row_number() over (partition by i.experiment_id, i.location_id, kind order by i.enter_seq) = 1
),

management_bounds as (
    select experiment_id, kind, max(enter_s) as latest_enter_s, min(leave_s) as earliest_leave_s,
        list(rank order by rank) as all_ranks
    from management
    group by all
),

collectives as (
    select * from {{ ref('collective_instances') }}
    where comm_size > 1 and coll_op not in ('ALLTOALLV', 'ALLTOALLW', 'SCAN', 'EXSCAN')
),

-- per collective instance: its class and the ranks that matter (MAXLOC with the
-- lowest rank on ties, as MPI_MAXLOC)
collective_classes as (
    select
        experiment_id,
        comm_id,
        instance_index,
        case
            when any_value(coll_op) = 'BARRIER' then 'barrier'
            when any_value(coll_op) in ('BCAST', 'SCATTER', 'SCATTERV') then '12n'
            when any_value(coll_op) in ('GATHER', 'GATHERV', 'REDUCE') then 'n21'
            else 'n2n'
        end as class,
        any_value(root_rank) as root_rank,
        arg_max(comm_rank, (begin_s, -comm_rank)) as latest_rank,
        max(begin_s) as latest_begin_s,
        min(end_s) as earliest_end_s,
        arg_max(comm_rank, (case when bytes_sent > 0 then begin_s else '-inf'::double end, -comm_rank))
            as latest_sender_rank,
        max(case when bytes_sent > 0 then begin_s end) as latest_sender_begin_s,
        max(case when comm_rank = root_rank then begin_s end) as root_begin_s,
        max(case when comm_rank = root_rank then bytes_sent end) as root_bytes_sent,
        max(case when comm_rank = root_rank then bytes_received end) as root_bytes_received,
        min(case when bytes_received > 0 then begin_s end) as earliest_receiver_begin_s,
        bool_and(bytes_sent = 0 and bytes_received = 0) as no_payload
    from collectives
    group by all
),

-- the instances with payload (see the header) and whom their calls wait for: the
-- latest rank at a barrier and at an n-to-n exchange whose calls all overlap, the root
-- of a 1-to-n, else the latest sender
collective_target_kinds as (
    select
        *,
        case
            when class = 'barrier' or (class = 'n2n' and full_overlap) then 'latest'
            when class = '12n' then 'root'
            else 'latest_sender'
        end as target_kind
    from (
        select *, earliest_end_s > latest_begin_s as full_overlap
        from collective_classes
        where not (class = 'n2n' and no_payload)
            and not (class = '12n' and root_bytes_sent = 0)
            and not (class = 'n21' and root_bytes_received = 0)
    ) as with_payload
),

-- the target: its rank and begin, and its call (the join of an instance with its call
-- on the target's rank, not of every call with it: 7.7 s of 40 on 1,024 ranks and 100M
-- events)
collective_targets as (
    select t.*, target_call.location_id as target_location_id, target_call.end_seq as target_seq
    from (
        select
            *,
            case target_kind
                when 'latest' then latest_rank
                when 'root' then root_rank
                else latest_sender_rank
            end as target_rank,
            case target_kind
                when 'latest' then latest_begin_s
                when 'root' then root_begin_s
                else latest_sender_begin_s
            end as target_begin_s
        from collective_target_kinds
    ) as t
    join collectives as target_call
        on t.experiment_id = target_call.experiment_id
        and t.comm_id = target_call.comm_id
        and t.instance_index = target_call.instance_index
        and t.target_rank = target_call.comm_rank
),

collective_points as (
    select
        c.*,
        t.class,
        t.full_overlap,
        t.target_rank,
        t.target_begin_s,
        t.target_location_id,
        t.target_seq,
        t.root_begin_s,
        root.rank as root_global_rank,
        -- some rank that receives data began before the root (an aggregate per instance,
        -- not a window over its calls: 10 s of 43 on 1,024 ranks and 100M events)
        t.earliest_receiver_begin_s < t.root_begin_s as someone_waits_for_root
    from collectives as c
    join collective_targets as t using (experiment_id, comm_id, instance_index)
    left join ranks as root on c.experiment_id = root.experiment_id and c.root_location_id = root.location_id
),

synchronising as (
    select p.*, r.rank
    from collective_points as p
    join ranks as r using (experiment_id, location_id)
    where case p.class
        when 'barrier' then true
        when 'n2n'
            then p.full_overlap
            or (p.bytes_received > 0 and p.begin_s < p.target_begin_s)
            or (p.bytes_sent > 0 and p.comm_rank = p.target_rank)
        when '12n'
            then (p.bytes_received > 0 and p.begin_s < p.target_begin_s)
            or (p.comm_rank = p.root_rank and p.someone_waits_for_root)
        when 'n21' then p.root_begin_s < p.target_begin_s and p.comm_rank in (p.root_rank, p.target_rank)
    end
),

-- MpiCommunicationHandler (MCH): the completion time's earliest end is over the
-- synchronising ranks, on 1-to-N over those waiting for the root
instance_bounds as (
    select
        experiment_id,
        comm_id,
        instance_index,
        min(end_s) filter (where not (class = '12n' and comm_rank = root_rank)) as earliest_end_s,
        count(distinct rank) as synchronising_count
    from synchronising
    group by all
),

run_ranks as (
    select experiment_id, count(distinct rank) as rank_count, list(distinct rank order by rank) as all_ranks
    from ranks
    group by all
),

-- the synchronising ranks of an instance, listed where they are not every rank of the run
-- (NULL where they are: a list of every rank on every rank's point is ranks x ranks per
-- instance, 1M entries per collective on 1,024 ranks)
synchronised as (
    select s.*, b.earliest_end_s, l.synchronising_ranks
    from synchronising as s
    join instance_bounds as b using (experiment_id, comm_id, instance_index)
    left join (
        select s.experiment_id, s.comm_id, s.instance_index, list(s.rank order by s.rank) as synchronising_ranks
        from synchronising as s
        join instance_bounds as b using (experiment_id, comm_id, instance_index)
        join run_ranks as n using (experiment_id)
        where b.synchronising_count < n.rank_count
        group by all
    ) as l using (experiment_id, comm_id, instance_index)
),

late_senders as (
    select
        w.*,
        m.send_call_callpath_id,
        {{ ref('ticks_to_s') }}(m.send_call_enter_time, x.global_offset, x.timer_resolution) as send_call_enter_s,
        {{ ref('ticks_to_s') }}(m.send_call_leave_time, x.global_offset, x.timer_resolution) as send_call_leave_s,
        {{ ref('ticks_to_s') }}(m.recv_call_enter_time, x.global_offset, x.timer_resolution) as recv_call_enter_s,
        {{ ref('ticks_to_s') }}(m.recv_call_leave_time, x.global_offset, x.timer_resolution) as recv_call_leave_s
    from {{ ref('mpi_latesender_waits') }} as w
    join {{ ref('messages') }} as m
        on w.experiment_id = m.experiment_id
        and w.send_location_id = m.send_location_id
        and w.send_seq = m.send_seq
    join experiments as x on w.experiment_id = x.experiment_id
),

late_receivers as (
    select
        w.experiment_id,
        w.location_id,
        w.callpath_id,
        w.idle_s,
        m.* exclude (experiment_id),
        {{ ref('ticks_to_s') }}(m.send_complete_call_enter_time, x.global_offset, x.timer_resolution)
            as send_complete_call_enter_s,
        {{ ref('ticks_to_s') }}(m.send_complete_call_leave_time, x.global_offset, x.timer_resolution)
            as send_complete_call_leave_s,
        {{ ref('ticks_to_s') }}(m.recv_post_call_enter_time, x.global_offset, x.timer_resolution)
            as recv_post_call_enter_s,
        {{ ref('ticks_to_s') }}(m.recv_post_call_leave_time, x.global_offset, x.timer_resolution)
            as recv_post_call_leave_s
    from {{ ref('mpi_latereceiver_waits') }} as w
    join {{ ref('messages') }} as m
        on w.experiment_id = m.experiment_id
        and w.location_id = m.send_location_id
        and w.send_seq = m.send_seq
    join experiments as x on w.experiment_id = x.experiment_id
),

parallel_regions as (
    select
        p.*,
        i.callpath_id,
        i.enter_s,
        greatest(0, i.enter_s - {{ ref('ticks_to_s') }}(p.fork_time, x.global_offset, x.timer_resolution))
            as fork_idle_s,
        i.enter_s - min(i.enter_s) over (partition by p.experiment_id, p.fork_location_id, p.fork_seq)
            as late_start_s
    from {{ ref('parallel_instances') }} as p
    join experiments as x using (experiment_id)
    join instances as i using (experiment_id, location_id, enter_seq)
),


points as (
    select
        m.experiment_id, m.location_id, m.leave_seq as seq, 2 * m.leave_seq - 1 as split_pos, m.kind,
        case when m.kind = 'FINALIZE' then greatest(0, least(b.latest_enter_s, m.leave_s) - m.enter_s) else 0 end
            as wait_s,
        m.callpath_id, m.enter_s as call_enter_s,
        null::bigint as target_location_id, null::bigint as target_seq,
        null::bigint as team_location_id, null::bigint as team_seq, null::bigint as barrier_index,
        m.leave_s - m.enter_s as total_s,
        greatest(0, m.leave_s - greatest(b.earliest_leave_s, least(b.latest_enter_s, m.leave_s))) as completion_s,
        b.all_ranks as partner_ranks,
        null::varchar as coll_class, null::bigint as comm_id, null::bigint as instance_index
    from management as m
    join management_bounds as b using (experiment_id, kind)

    union all

    select
        s.experiment_id, s.location_id, s.end_seq, 2 * s.end_seq, 'COLL',
        greatest(0, least(s.target_begin_s, s.end_s) - s.begin_s),
        s.call_callpath_id, s.call_enter_s, s.target_location_id, s.target_seq, null, null, null,
        s.call_leave_s - s.call_enter_s,
        greatest(0, s.end_s - greatest(s.earliest_end_s, least(s.target_begin_s, s.end_s))),
        case
            when s.class in ('barrier', 'n2n') then s.synchronising_ranks
            when s.comm_rank = s.root_rank
                then list_filter(coalesce(s.synchronising_ranks, n.all_ranks), x -> x != s.rank)
            else [s.root_global_rank]
        end,
        s.class, s.comm_id, s.instance_index
    from synchronised as s
    -- the run's ranks only where a 1-to-N root synchronises with every rank: the others
    left join run_ranks as n
        on s.experiment_id = n.experiment_id and s.comm_rank = s.root_rank and s.synchronising_ranks is null

    union all

    -- the receive's call is the message's (recv_call_*: the call of recv_call_enter_seq)
    select
        w.experiment_id, w.location_id, w.recv_seq, 2 * w.recv_seq, 'LS', w.idle_s, w.callpath_id,
        w.recv_call_enter_s, w.send_location_id, w.send_seq, null, null, null,
        w.recv_call_leave_s - w.recv_call_enter_s, greatest(0, w.recv_call_leave_s - w.send_call_leave_s), [r.rank],
        null, null, null
    from late_senders as w
    join ranks as r on w.experiment_id = r.experiment_id and w.send_location_id = r.location_id

    union all

    select distinct
        w.experiment_id, w.send_location_id, w.send_seq, 2 * w.send_seq, 'LS_SEND', 0,
        w.send_call_callpath_id, w.send_call_enter_s, null, null, null, null, null,
        w.send_call_leave_s - w.send_call_enter_s, greatest(0, w.send_call_leave_s - w.recv_call_leave_s),
        [r.rank], null, null, null
    from late_senders as w
    join ranks as r using (experiment_id, location_id)

    union all

    select
        w.experiment_id, w.location_id, w.send_complete_seq, 2 * w.send_complete_seq, 'LR', w.idle_s,
        w.callpath_id, w.send_complete_call_enter_s, w.recv_location_id, w.recv_post_seq, null, null, null,
        w.send_complete_call_leave_s - w.send_complete_call_enter_s,
        least(0, w.send_complete_call_leave_s - w.recv_post_call_leave_s), [r.rank], null, null, null
    from late_receivers as w
    join ranks as r on w.experiment_id = r.experiment_id and w.recv_location_id = r.location_id

    union all

    select
        w.experiment_id, w.recv_location_id, w.recv_post_seq, 2 * w.recv_post_seq, 'LR_RECV', 0,
        w.recv_post_call_callpath_id, w.recv_post_call_enter_s, null, null, null, null, null,
        w.recv_post_call_leave_s - w.recv_post_call_enter_s,
        greatest(0, w.recv_post_call_leave_s - w.send_complete_call_leave_s), [r.rank], null, null, null
    from late_receivers as w
    join ranks as r using (experiment_id, location_id)
    anti join late_senders as s
        on w.experiment_id = s.experiment_id
        and w.recv_location_id = s.location_id
        and w.recv_post_seq = s.recv_seq

    union all

    select
        b.experiment_id, b.location_id, i.leave_seq, 2 * i.leave_seq - 1, 'OMPBAR',
        greatest(0, b.latest_enter_time::bigint - b.enter_time::bigint) / x.timer_resolution,
        b.callpath_id, i.enter_s, null, null, b.fork_location_id, b.fork_seq, b.barrier_index,
        i.leave_s - i.enter_s, 0, [], null, null, null
    from {{ ref('omp_barrier_instances') }} as b
    join experiments as x using (experiment_id)
    join instances as i using (experiment_id, location_id, enter_seq)

    union all

    select
        experiment_id, location_id, enter_seq, 2 * enter_seq + 1, 'FORK', 0, callpath_id, enter_s,
        null, null, fork_location_id, fork_seq, null, fork_idle_s, late_start_s, [], null, null, null
    from parallel_regions
)

select
    *,
    row_number() over location_order as point_index,
    sum(wait_s) over location_order as waits_to_s,
    count(case when wait_s > 0 then 1 end) over location_order as waiting_points_to
from points
window location_order as (partition by experiment_id, location_id order by seq rows unbounded preceding)
