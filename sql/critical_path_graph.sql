-- The graph the critical path (critical_path_segments) is walked on: every
-- synchronisation point (sync_points) the path may arrive at, with the
-- departure it then runs back to on its location and the points it continues
-- at from there (Scalasca 2.6, src/scout/generator/CriticalPath.pattern).
--
-- Arrivals: the Leave of MPI_Finalize on the rank that entered MPI_Finalize last
-- (ties: lowest rank), how = FINALIZE; the partner's point of every LS, LR and
-- COLL wait (LS_SEND, LR_RECV, COLL); every OMPBAR and FORK point. Departure: the
-- latest point before the arrival on its location where the location waited (LS,
-- LR, COLL with wait_s > 0), an OpenMP barrier or fork (always), or MPI_Init,
-- where the path ends. Successors: the sender (LS), the receiver's posting call
-- (LR), the collective's target rank (COLL), every team thread that did not wait
-- at the barrier (OMPBAR), the forking thread (FORK).
--
-- Columns: location_id, seq, how, split_pos, callpath_id and call_enter_s (the
-- call holding it, its Enter) of the arrival; from_seq, from_kind,
-- from_callpath_id, from_wait_s, from_split, from_s of its departure (as
-- sync_points: the call holding it, its waiting time and Enter); next_location_id,
-- next_seq, next_how: one row per successor (NULL at MPI_Init).
-- Each use reads sync_points itself, not a CTE of it: a copy of every point (lists
-- included) outgrew the load's memory budget on large traces, and a CTE's NOT
-- MATERIALIZED is lost when DuckDB (1.5) stores the view in a database file.

-- where the path may leave a location, and how it arrives at the partner of a wait
with departures as (
    select
        *,
        case kind when 'LS' then 'LS_SEND' when 'LR' then 'LR_RECV' when 'COLL' then 'COLL' end as next_how
    from {{ ref('sync_points') }}
    where kind in ('INIT', 'OMPBAR', 'FORK') or (kind in ('LS', 'LR', 'COLL') and wait_s > 0)
),

start as (
    select experiment_id, arg_max(location_id, (call_enter_s, -location_id)) as location_id
    from {{ ref('sync_points') }}
    where kind = 'FINALIZE'
    group by all
),

-- the partner's point of every wait the path may leave at, once (most are the
-- target of a collective, shared by every rank that waited for it)
next_points as (
    select distinct experiment_id, target_location_id as location_id, target_seq as seq, next_how as how
    from departures
    where next_how is not null
),

-- where the path may arrive, with how it arrives
arrivals as (
    select distinct experiment_id, location_id, seq, split_pos, how, callpath_id, call_enter_s from (
        select p.experiment_id, p.location_id, p.seq, p.split_pos, 'FINALIZE' as how, p.callpath_id, p.call_enter_s
        from {{ ref('sync_points') }} as p
        join start using (experiment_id, location_id)
        where p.kind = 'FINALIZE'
        union all
        select n.experiment_id, n.location_id, n.seq, p.split_pos, n.how, p.callpath_id, p.call_enter_s
        from next_points as n
        join {{ ref('sync_points') }} as p using (experiment_id, location_id, seq)
        union all
        select experiment_id, location_id, seq, split_pos, kind, callpath_id, call_enter_s
        from {{ ref('sync_points') }}
        where kind in ('OMPBAR', 'FORK')
    ) as candidates
),

-- each arrival's departure: the latest one before it on its location. Arriving
-- at a blocking send that is itself a Late Receiver wait, the path leaves again at
-- that send (Scalasca handles the arrival first).
segments as (
    select
        a.*,
        d.seq as from_seq,
        d.split_pos as from_split,
        d.kind as from_kind,
        d.wait_s as from_wait_s,
        d.callpath_id as from_callpath_id,
        d.call_enter_s as from_s,
        d.target_location_id as next_location_id,
        d.target_seq as next_seq,
        d.next_how,
        d.team_location_id,
        d.team_seq,
        d.barrier_index
    from arrivals as a
    asof join departures as d
        on a.experiment_id = d.experiment_id
        and a.location_id = d.location_id
        and a.split_pos + (case when a.how = 'LS_SEND' then 1 else 0 end) > d.split_pos
    where not (a.how = 'LS_SEND' and d.split_pos = a.split_pos and d.kind != 'LR')
),

-- from a departure to the arrivals it leads to
successors as (
    select experiment_id, location_id, seq, how, next_location_id, next_seq, next_how
    from segments
    where next_how is not null
    union all
    select s.experiment_id, s.location_id, s.seq, s.how, b.location_id as next_location_id, b.seq as next_seq,
        'OMPBAR'
    from segments as s
    join {{ ref('sync_points') }} as b
        on s.experiment_id = b.experiment_id
        and s.team_location_id = b.team_location_id
        and s.team_seq = b.team_seq
        and s.barrier_index = b.barrier_index
    where s.from_kind = 'OMPBAR' and b.kind = 'OMPBAR' and b.wait_s = 0
    union all
    select s.experiment_id, s.location_id, s.seq, s.how, f.location_id as next_location_id, f.seq as next_seq,
        'FORK'
    from segments as s
    join {{ ref('sync_points') }} as f
        on s.experiment_id = f.experiment_id
        and s.team_location_id = f.location_id
        and s.team_seq = f.team_seq
    where s.from_kind = 'FORK' and f.kind = 'FORK'
)

select
    s.experiment_id,
    s.location_id,
    s.seq,
    s.how,
    s.split_pos,
    s.callpath_id,
    s.call_enter_s,
    s.from_seq,
    s.from_kind,
    s.from_callpath_id,
    s.from_wait_s,
    s.from_split,
    s.from_s,
    n.next_location_id,
    n.next_seq,
    n.next_how
from segments as s
left join successors as n using (experiment_id, location_id, seq, how)
