-- The critical path (Scalasca 2.6, src/scout/generator/CriticalPath.pattern;
-- Böhme et al., "Scalable critical-path based performance analysis", IPDPS
-- 2012): the chain of activities that determined the run time, one row per
-- segment, i.e. per stretch of one location on the path.
--
-- The path runs backwards over critical_path_graph from the Leave of
-- MPI_Finalize on the rank that entered MPI_Finalize last: on each location back
-- to the latest point where it waited (or an OpenMP barrier or fork), then on
-- the location it waited for, until MPI_Init. A location can be on the path
-- several times; where team threads reach an OpenMP barrier last at the same
-- tick, the path runs on each of them (as in Scalasca).
--
-- Columns: location_id; from_seq / from_kind / from_callpath_id / from_wait_s:
-- the departure point that begins the segment (its event, kind, the call path of
-- its call and that call's waiting time, which is not on the path); to_seq /
-- to_kind / to_callpath_id: the arrival point that ends it (the event the path
-- came back to, how: FINALIZE, LS_SEND, LR_RECV, COLL, OMPBAR, FORK);
-- from_split / to_split (time_increments positions: the segment holds the
-- increments with from_split <= pos < to_split); from_s / to_s: the Enter of the
-- departure's and the arrival's call (seconds since the global offset), the
-- segment's time span. segment numbers them by to_s from the end of the run
-- backwards (segment 1 ends at MPI_Finalize).
{{ config(materialized='table') }}
with recursive graph as materialized (
    select * from {{ ref('critical_path_graph') }}
),

-- the arrival points, numbered 1..n
nodes as materialized (
    select
        row_number() over (order by experiment_id, location_id, seq, how) as node,
        *
    from (
        select distinct
            experiment_id, location_id, seq, how, split_pos, callpath_id, call_enter_s, from_seq, from_kind,
            from_callpath_id, from_wait_s, from_split, from_s
        from graph
    ) as arrivals
),

-- (row comparisons: with the experiment_id equalities separate, DuckDB joins the
-- two node lists on experiment_id alone first)
edges as (
    select a.node, b.node as next_node
    from graph as g
    join nodes as a
        on (g.experiment_id, g.location_id, g.seq, g.how) = (a.experiment_id, a.location_id, a.seq, a.how)
    join nodes as b
        on (g.experiment_id, g.next_location_id, g.next_seq, g.next_how)
        = (b.experiment_id, b.location_id, b.seq, b.how)
),

-- Reachability from the start by pointer doubling, a number of passes
-- logarithmic in the path's length: jump lists every node's node 2^k steps on
-- (a node without successor, at MPI_Init, is its own), reached the nodes within
-- 2^k steps of the start. Where a departure has several successors (team threads
-- that reached an OpenMP barrier at the same tick) this follows the first; the
-- others are added below.
successor_list as (
    select list(coalesce(e.next_node, n.node) order by n.node) as jump
    from nodes as n
    left join (select node, min(next_node) as next_node from edges group by all) as e using (node)
),

doubling (jump, reached, grew) as (
    select s.jump, [n.node], true
    from successor_list as s, nodes as n
    where n.how = 'FINALIZE'
    union all
    select list_transform(jump, x -> jump[x]), now_reached, array_length(now_reached) > array_length(reached)
    from (
        select *, list_distinct(list_concat(reached, list_transform(reached, x -> jump[x]))) as now_reached
        from doubling
        where grew
    ) as step
),

on_path as materialized (
    select distinct unnest(reached) as node
    from doubling
    where not grew
),

-- the rest of the path behind the other successors, until it joins the path
branches (node) as (
    select e.next_node
    from on_path as o
    join edges as e using (node)
    where e.next_node not in (select node from on_path)
    union all  -- the graph has no cycle, and segments takes each node once (Spark: no UNION here)
    select e.next_node
    from branches as b
    join edges as e using (node)
    where e.next_node not in (select node from on_path)
),

segments as (
    select n.*
    from nodes as n
    where n.node in (select node from on_path union select node from branches)
)

select
    s.experiment_id,
    s.location_id,
    row_number() over (partition by s.experiment_id order by s.call_enter_s desc, s.location_id asc) as segment,
    s.from_seq,
    s.from_kind,
    s.from_callpath_id,
    s.from_wait_s,
    s.from_split,
    s.from_s,
    s.seq as to_seq,
    s.how as to_kind,
    s.callpath_id as to_callpath_id,
    s.split_pos as to_split,
    s.call_enter_s as to_s
from segments as s
