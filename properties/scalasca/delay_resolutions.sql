{#---
kind: pattern
parent: null
unit: s
requires: [trace]
columns: {location_id: BIGINT, point_index: BIGINT, class: VARCHAR, wait_s: DOUBLE, callpath_id: BIGINT,
          delayer_location_id: BIGINT, delayer_index: BIGINT, delayer_from_index: BIGINT,
          group_from_index: BIGINT, waiter_from_index: BIGINT, active_from_index: BIGINT,
          delayer_waits_s: DOUBLE}
info: Every MPI and OpenMP barrier wait state with the location that caused it and the intervals its delay is measured on.
description: |
  Scalasca 2.6's delay analysis (Delay.MPI.pattern, Delay.OMP.pattern, MpiDelayOps.cpp,
  OmpDelayOps.cpp, SynchpointHandler.cpp; Böhme et al., "Identifying the root causes
  of wait states in large-scale parallel applications", ICPP 2010). One row per
  waiting synchronisation point (sync_points, location_id / point_index) whose wait
  has a delayer: class latesender (an LS point; the delayer is the sender's LS_SEND
  point), latereceiver (an LR point; the receiver's LR_RECV point, none where the
  receive posting is itself a Late Sender wait), barrier / n2n / 12n / n21 (a COLL
  point other than the collective's target; the delayer is the target's point),
  ompbarrier (an OMPBAR point; the delayer is the team's last thread to enter, ties:
  the lowest location). Point indexes (0: the start of the trace): on the delayer,
  delayer_from_index, its latest point before delayer_index that synchronises with
  the waiting rank (findPreviousMpiSynchpoint; on a collective at or after the
  group start; OpenMP: its previous OpenMP point, findPreviousOmpSynchpoint),
  group_from_index, the same, or on a collective the group start
  (findPreviousMpiGroupSynchpoints: the earliest of the delayer's latest
  synchronisations with every other rank of the communicator), active_from_index,
  from which point of the delayer's interval (group_from_index, delayer_index) the
  wait's share propagates (Scalasca's ScaleMap: a rank that synchronised with the
  delayer after the group start counts from the next such synchronisation of
  another rank on; NULL: never); on the waiting location, waiter_from_index, its
  latest point before the wait that synchronises with the delayer (OpenMP: its
  previous OpenMP point). delayer_waits_s: the delayer's waits strictly between
  delayer_from_index and delayer_index.
diagnosis: Not a problem by itself; the input of the delay costs.
---#}
-- not materialized: a copy of every point outgrew the report's memory budget on large
-- traces (7.7M points of 15 columns at 100M events: 36 s against 29 s); each use reads
-- the columns it joins
with points as not materialized (
    select
        location_id, seq, point_index, kind, coll_class, wait_s, callpath_id, call_enter_s,
        target_location_id, target_seq, team_location_id, team_seq, barrier_index, comm_id, instance_index,
        -- the location's waits before the point: its running sums less the point's own
        -- (exact where the point did not wait, as at every delayer point of the catalog)
        waits_to_s - wait_s as waits_before_s,
        waiting_points_to - (case when wait_s > 0 then 1 else 0 end) as waiting_points_before
    from {{ ref('sync_points') }}
),

ranks as (
    select location_id, rank from {{ ref('locations') }}
),

-- a wait and the point of its delayer: Late Sender -> the send (LS_SEND), Late
-- Receiver -> the posting of the receive (LR_RECV), a collective's member -> the
-- target's point
waits as (
    select
        w.location_id,
        w.point_index,
        case w.kind when 'LS' then 'latesender' when 'LR' then 'latereceiver' else w.coll_class end as class,
        w.wait_s,
        w.callpath_id,
        w.comm_id,
        w.instance_index,
        d.location_id as delayer_location_id,
        d.point_index as delayer_index,
        d.waits_before_s as delayer_waits_before_s,
        d.waiting_points_before as delayer_waiting_points_before,
        wr.rank as waiter_rank,
        dr.rank as delayer_rank
    from points as w
    join points as d on w.target_location_id = d.location_id and w.target_seq = d.seq
    join ranks as wr on w.location_id = wr.location_id
    join ranks as dr on d.location_id = dr.location_id
    where (w.kind = 'LS' and d.kind = 'LS_SEND')
        or (w.kind = 'LR' and d.kind = 'LR_RECV')
        or (w.kind = 'COLL' and (w.location_id, w.seq) != (d.location_id, d.seq))
),

-- a collective's delayer and every other rank of the communicator
group_ranks as (
    select d.delayer_location_id, d.delayer_index, r.rank
    from (
        select distinct delayer_location_id, delayer_index, delayer_rank, comm_id, instance_index
        from waits
        where comm_id is not null
    ) as d
    -- the columns named: in this query DuckDB 1.5 would read all 23 of collective_instances (EXPLAIN)
    join (select comm_id, instance_index, location_id from {{ ref('collective_instances') }}) as c
        using (comm_id, instance_index)
    join ranks as r on c.location_id = r.location_id
    where r.rank != d.delayer_rank
),

-- findPreviousMpiSynchpoint(point, rank): the location's latest point before it
-- that synchronises with the rank (sync_points.partner_ranks), for every question
-- below at once: the later of its latest point with every rank (MPI_Init, barriers,
-- ...) and its latest with the rank among the others
questions as (
    select delayer_location_id as location_id, delayer_index as point_index, waiter_rank as rank from waits
    union
    select location_id, point_index, delayer_rank from waits
    union
    select delayer_location_id, delayer_index, rank from group_ranks
),

rank_count as (
    select count(distinct rank) as ranks from ranks
),

with_everyone as (  -- partner_ranks NULL: a collective of every rank of the run
    select p.location_id, p.point_index
    from {{ ref('sync_points') }} as p, rank_count as n
    where p.partner_ranks is null or array_length(p.partner_ranks) = n.ranks
),

with_some as (
    select p.location_id, p.point_index, unnest(p.partner_ranks) as partner_rank
    from {{ ref('sync_points') }} as p, rank_count as n
    where array_length(p.partner_ranks) between 1 and n.ranks - 1
),

previous as (
    select
        q.location_id,
        q.point_index,
        q.rank,
        greatest(coalesce(e.point_index, 0), coalesce(s.point_index, 0)) as previous_index
    from questions as q
    asof left join with_everyone as e
        on q.location_id = e.location_id
        and q.point_index > e.point_index
    asof left join with_some as s
        on q.location_id = s.location_id
        and q.rank = s.partner_rank
        and q.point_index > s.point_index
),

-- a collective's group start is the earliest of its delayer's previous
-- synchronisations with the other ranks; a later one starts a rank's own
-- sub-interval, and Scalasca's ScaleMap counts the rank from the next later
-- synchronisation of another rank on (src/scout/MpiDelayOps.cpp, CalculateScales)
group_bounds as (
    select
        g.delayer_location_id,
        g.delayer_index,
        g.rank,
        p.previous_index,
        min(p.previous_index) over delayer_group as group_from_index,
        min(p.previous_index) over (
            delayer_group order by p.previous_index range between 1 following and unbounded following
        ) as next_index
    from group_ranks as g
    join previous as p on g.delayer_location_id = p.location_id and g.delayer_index = p.point_index and g.rank = p.rank
    window delayer_group as (partition by g.delayer_location_id, g.delayer_index)
),

mpi_resolutions as (
    select
        w.location_id,
        w.point_index,
        w.class,
        w.wait_s,
        w.callpath_id,
        w.delayer_location_id,
        w.delayer_index,
        d.previous_index as delayer_from_index,
        coalesce(g.group_from_index, d.previous_index) as group_from_index,
        o.previous_index as waiter_from_index,
        case
            when g.group_from_index is null or d.previous_index = g.group_from_index then d.previous_index
            else g.next_index
        end as active_from_index,
        w.delayer_waits_before_s,
        w.delayer_waiting_points_before
    from waits as w
    join previous as d
        on w.delayer_location_id = d.location_id and w.delayer_index = d.point_index and w.waiter_rank = d.rank
    join previous as o on w.location_id = o.location_id and w.point_index = o.point_index and w.delayer_rank = o.rank
    left join group_bounds as g
        on
            w.delayer_location_id = g.delayer_location_id
            and w.delayer_index = g.delayer_index
            and w.waiter_rank = g.rank
),

-- OpenMP barriers (src/scout/OmpDelayOps.cpp, CalculateOmpBarrierDelay): each
-- thread waits for the team's last thread to enter (ties: the lowest location);
-- every interval starts at the location's previous OpenMP point
-- (findPreviousOmpSynchpoint)
omp_barriers as (
    select
        *,
        lag(point_index) over (partition by location_id order by point_index) as previous_omp_index,
        arg_max(location_id, (call_enter_s, -location_id))
            over (partition by team_location_id, team_seq, barrier_index) as latest_location_id
    from points
    where kind in ('OMPBAR', 'FORK')
    qualify kind = 'OMPBAR'
),

omp_barrier as (
    select
        w.location_id,
        w.point_index,
        'ompbarrier' as class,
        w.wait_s,
        w.callpath_id,
        d.location_id as delayer_location_id,
        d.point_index as delayer_index,
        coalesce(d.previous_omp_index, 0) as delayer_from_index,
        coalesce(d.previous_omp_index, 0) as group_from_index,
        coalesce(w.previous_omp_index, 0) as waiter_from_index,
        coalesce(d.previous_omp_index, 0) as active_from_index,
        d.waits_before_s as delayer_waits_before_s,
        d.waiting_points_before as delayer_waiting_points_before
    from omp_barriers as w
    join omp_barriers as d
        on
            w.team_location_id = d.team_location_id
            and w.team_seq = d.team_seq
            and w.barrier_index = d.barrier_index
            and w.latest_location_id = d.location_id
    where w.location_id != d.location_id
),

resolutions as (
    select * from mpi_resolutions
    union all  -- the same columns in the same order
    select * from omp_barrier
)

select
    w.* exclude (delayer_waits_before_s, delayer_waiting_points_before),
    case
        -- no wait in between: 0 exactly (a difference of two running sums of seconds can
        -- leave a rounding residue, which would count as a wait)
        when w.delayer_waiting_points_before = coalesce(since.waiting_points_to, 0) then 0
        else w.delayer_waits_before_s - coalesce(since.waits_to_s, 0)
    end as delayer_waits_s
from resolutions as w
left join {{ ref('sync_points') }} as since  -- the delayer's sums at the start of its interval
    on w.delayer_location_id = since.location_id
    and w.delayer_from_index = since.point_index
