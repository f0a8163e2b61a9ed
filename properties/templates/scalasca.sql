{#- Rules shared by Scalasca's wait-state metrics (docs/wait-states.md).
    Import with: {% import 'templates/scalasca.sql' as scalasca with context %} -#}

{#- The roots of Scalasca's metric tree (metric_tree, time_cube). -#}
{% set metric_roots = ['time', 'visits', 'bytes', 'comms', 'syncs', 'critical_path', 'performance_impact',
                       'imbalance', 'delay', 'waitstates_propagating_vs_terminal', 'waitstates_direct_vs_indirect'] %}

{#- A Scalasca collective or management wait-state metric: the rows of
    mpi_collective_wait_matches of that metric, summed per (call path,
    location) and over all processes (asl.sum_matches). Import with context. -#}
{% macro collective_metric(metric) -%}
{% import 'templates/asl.sql' as asl with context %}
{{ asl.sum_matches('(select * from ' ~ ref('mpi_collective_wait_matches') ~ " where metric = '" ~ metric ~ "')",
                   'idle_s') }}
{%- endmacro %}


{#- A Scalasca root-cause metric (delay costs, wait-state classes): the rows of
    root_cause_matches of that metric, summed per (call path, location) and over
    all processes (asl.sum_matches). Import with context. -#}
{% macro root_cause_metric(metric) -%}
{% import 'templates/asl.sql' as asl with context %}
{{ asl.sum_matches('(select * from ' ~ ref('root_cause_matches') ~ " where metric = '" ~ metric ~ "')",
                   'value_s') }}
{%- endmacro %}


{#- Scalasca's time maps (src/scout/TmapCacheHandler.cpp, getRuntimes) of
    `intervals`, a relation of (interval_id, location_id, from_index, to_index):
    the time per call path of a location between its synchronisation points
    from_index and to_index (sync_points.point_index; 0: the start of the trace,
    null: its end), given their plain sums `summed_times` (interval_id,
    callpath_id, time_s). Scalasca's map holds 128 call paths and drops small
    entries where an interval has more; $p_time_map_entries > 0 asks for such a
    map (fixed_size_time_maps), 0 keeps every call path (the plain sums).
    Yields (interval_id, callpath_id, time_s). Import with context. -#}
{% macro time_maps(intervals, summed_times) -%}
(
    with overflowing as (
        select i.*
        from {{ intervals }} as i
        semi join (
            select interval_id
            from {{ summed_times }}
            where $p_time_map_entries > 0  -- 0: no map (the plan drops this branch)
            group by all
            having count(*) > $p_time_map_entries
        ) as o using (interval_id)
    )

    select interval_id, callpath_id, time_s
    from {{ summed_times }}
    where interval_id not in (select interval_id from overflowing)

    union all

    select * from {{ fixed_size_time_maps('overflowing') }}
)
{%- endmacro %}


{#- The time maps of `intervals` (see time_maps) as Scalasca fills a map of
    $p_time_map_entries call paths from its time-map cache: per chunk (the time
    between two consecutive chunk ends of the location: synchronisation points,
    receive requests, ThreadJoins) the chunk's call paths in PEARL's order
    (pearl_callpath_ids), chunk after chunk, into fixed_priority_map. Yields
    (interval_id, callpath_id, time_s). -#}
{% macro fixed_size_time_maps(intervals) -%}
(
    -- each scan repeats $p_time_map_entries > 0: with 0 the plan drops them all
    with capped as (
        select * from {{ intervals }}
        where $p_time_map_entries > 0
    ),

    -- where TmapCacheHandler closes a chunk: every synchronisation point
    -- (cb_fws_pre_mpi_synchpoint, cb_fws_omp_synchpoint, cb_fws_omp_fork), every
    -- receive request (cb_fws_pre_recvreq) and after every ThreadJoin
    -- (cb_fws_omp_join_checkpoint), as positions among the time increments
    chunk_ends as (
        select location_id, split_pos as end_pos
        from {{ ref('sync_points') }}
        where $p_time_map_entries > 0 and location_id in (select location_id from capped)

        union

        select location_id, 2 * seq + case when type = 'THREAD_JOIN' then 1 else 0 end
        from {{ ref('events') }}
        where
            $p_time_map_entries > 0
            and type in ('MPI_IRECV_REQUEST', 'THREAD_JOIN')
            and location_id in (select location_id from capped)
    ),

    -- each chunk's time per call path (end_pos null: after the last chunk end)
    chunks as (
        select i.location_id, e.end_pos, i.callpath_id, sum(i.amount_s) as time_s
        from {{ ref('time_increments') }} as i
        anti join {{ ref('cleared_increments') }} as c using (location_id, pos, callpath_id)
        asof left join chunk_ends as e on i.location_id = e.location_id and i.pos < e.end_pos
        where $p_time_map_entries > 0 and i.location_id in (select location_id from capped)
        group by all
    ),

    -- the synchronisation interval of each chunk: the point at or after its end
    -- (null after the last point)
    chunk_points as (
        select c.*, p.point_index
        from chunks as c
        asof left join (select location_id, split_pos, point_index from {{ ref('sync_points') }}) as p
            on c.location_id = p.location_id and c.end_pos <= p.split_pos
    ),

    sequences as (
        select
            k.interval_id,
            list({'ks': [o.pearl_order], 'vs': [c.time_s]} order by c.end_pos nulls last, o.pearl_order) as entries
        from capped as k
        join chunk_points as c
            on k.location_id = c.location_id
            and coalesce(c.point_index, 9223372036854775807) > k.from_index
            and (k.to_index is null or c.point_index <= k.to_index)
        join {{ ref('pearl_callpath_ids') }} as o using (callpath_id)
        group by all
    ),

    maps as (
        select interval_id, {{ fixed_priority_map('entries') }} as time_map
        from sequences
    ),

    held as (
        select m.interval_id, m.time_map.ks[i.n] as pearl_order, m.time_map.vs[i.n] as time_s
        from maps as m
        cross join unnest(range(1, array_length(m.time_map.ks) + 1)) as i (n)
    )

    select h.interval_id, o.callpath_id, h.time_s
    from held as h
    join {{ ref('pearl_callpath_ids') }} as o using (pearl_order)
)
{%- endmacro %}


{#- Scalasca's fixed_priority_map<call path, time, $p_time_map_entries>
    (src/scout/fixed_map.hh) filled from `entries`, a list of {'ks': [key], 'vs':
    [time]} in the order of insertion: a key held adds the time; a new key is held
    while the map has room, else it replaces the smallest held time (the lowest key
    among equal times) where that is smaller than its time, else it is dropped.
    Yields {'ks': keys, 'vs': times}. (list_reduce needs the accumulator of the
    elements' type, so each element is a one-entry map.) -#}
{% macro fixed_priority_map(entries) -%}
{#- one implementation per engine (as dbt's adapter.dispatch): Spark has no list_reduce, and
    no list_zip whose fields are numbered -#}
{{ spark__fixed_priority_map(entries) if engine == 'spark' else duckdb__fixed_priority_map(entries) }}
{%- endmacro %}

{% macro duckdb__fixed_priority_map(entries) -%}
list_reduce(
    {{ entries }},
    (held, entry) -> case
        when list_position(held.ks, entry.ks[1]) is not null then {
            'ks': held.ks,
            'vs': list_concat(
                held.vs[1:list_position(held.ks, entry.ks[1]) - 1],
                [held.vs[list_position(held.ks, entry.ks[1])] + entry.vs[1]],
                held.vs[list_position(held.ks, entry.ks[1]) + 1:]
            )
        }
        when array_length(held.ks) < $p_time_map_entries then {
            'ks': list_append(held.ks, entry.ks[1]), 'vs': list_append(held.vs, entry.vs[1])
        }
        when list_min(held.vs) < entry.vs[1] then {
            'ks': list_concat(
                held.ks[1:list_position(held.ks, list_min(list_zip(held.vs, held.ks))[2]) - 1],
                entry.ks,
                held.ks[list_position(held.ks, list_min(list_zip(held.vs, held.ks))[2]) + 1:]
            ),
            'vs': list_concat(
                held.vs[1:list_position(held.ks, list_min(list_zip(held.vs, held.ks))[2]) - 1],
                entry.vs,
                held.vs[list_position(held.ks, list_min(list_zip(held.vs, held.ks))[2]) + 1:]
            )
        }
        else held
    end,
    {'ks': []::bigint [], 'vs': []::double []}
)
{%- endmacro %}

{#- The same map on Spark (written in DuckDB's dialect, which cosydb translates): aggregate
    is Spark's list_reduce with its initial value; array_position is 0 for a key not
    held; the smallest (time, key) of the held entries by zip_with. -#}
{% macro spark__fixed_priority_map(entries) -%}
aggregate(
    {{ entries }},
    {'ks': []::bigint [], 'vs': []::double []},
    (held, entry) -> case
        when array_position(held.ks, entry.ks[1]) > 0 then {
            'ks': held.ks,
            'vs': list_concat(
                held.vs[1:array_position(held.ks, entry.ks[1]) - 1],
                [held.vs[array_position(held.ks, entry.ks[1])] + entry.vs[1]],
                held.vs[array_position(held.ks, entry.ks[1]) + 1:]
            )
        }
        when array_length(held.ks) < $p_time_map_entries then {
            'ks': list_concat(held.ks, entry.ks), 'vs': list_concat(held.vs, entry.vs)
        }
        when array_min(held.vs) < entry.vs[1] then {
            'ks': list_concat(
                held.ks[1:array_position(held.ks, array_min(zip_with(held.vs, held.ks, (v, k) -> {'v': v, 'k': k})).k) - 1],
                entry.ks,
                held.ks[array_position(held.ks, array_min(zip_with(held.vs, held.ks, (v, k) -> {'v': v, 'k': k})).k) + 1:]
            ),
            'vs': list_concat(
                held.vs[1:array_position(held.ks, array_min(zip_with(held.vs, held.ks, (v, k) -> {'v': v, 'k': k})).k) - 1],
                entry.vs,
                held.vs[array_position(held.ks, array_min(zip_with(held.vs, held.ks, (v, k) -> {'v': v, 'k': k})).k) + 1:]
            )
        }
        else held
    end
)
{%- endmacro %}


{#- propagated (class, location_id, point_index, cost_s): the delay costs of ``seeds``
    (class, location_id, point_index, cost_s) carried back along ``edges`` (location_id,
    point_index -> cause_location_id, cause_index, factor) to every wait they reach, a
    CTE of a WITH RECURSIVE (delay_costs). One implementation per engine (as dbt's
    adapter.dispatch): DuckDB sums the costs reaching a wait at each step, Spark (no
    aggregate in a recursive step) carries each path's cost; the sums over all paths are
    the same. -#}
{% macro propagated_costs(seeds, edges) -%}
{{ spark__propagated_costs(seeds, edges) if engine == 'spark' else duckdb__propagated_costs(seeds, edges) }}
{%- endmacro %}

{% macro duckdb__propagated_costs(seeds, edges) -%}
propagated (step, class, location_id, point_index, cost_s) as (
    select 0, class, location_id, point_index, sum(cost_s)
    from {{ seeds }}
    group by all
    union all
    select any_value(p.step) + 1, p.class, e.cause_location_id, e.cause_index, sum(p.cost_s * e.factor)
    from propagated as p
    join {{ edges }} as e on p.location_id = e.location_id and p.point_index = e.point_index
    group by p.class, e.cause_location_id, e.cause_index
)
{%- endmacro %}

{% macro spark__propagated_costs(seeds, edges) -%}
propagated (class, location_id, point_index, cost_s) as (
    select class, location_id, point_index, cost_s
    from {{ seeds }}
    union all
    select p.class, e.cause_location_id, e.cause_index, p.cost_s * e.factor
    from propagated as p
    join {{ edges }} as e on p.location_id = e.location_id and p.point_index = e.point_index
)
{%- endmacro %}
