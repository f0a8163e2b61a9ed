-- The run's phases as the report states them (cosydb report): the share of the rank
-- basis's time (location_time, threads included) spent in MPI's initialisation and
-- finalisation (init_finalize_time), which dominates short runs, and the region of the
-- program's own code that holds most of the rest (main_work_time), the rank basis to
-- rank the problems against instead. One row per experiment: time_s (the rank basis,
-- seconds), init_finalize_s and init_finalize_share (of time_s), phases (per call path
-- of MPI_Init, MPI_Init_thread, MPI_Finalize: callpath, value_s, largest first),
-- main_region (its name as recorded), main_region_s, main_region_share (of the time
-- outside the phases) and main_region_suggested (main_work_time's condition: it holds
-- at least 80 % of it).
with results as (
    select * from {{ ref('property_results') }} where status = 'evaluated' and location_id is null
),

basis as (
    select experiment_id, value as time_s from results where property = 'location_time'
),

phases as (
    select
        experiment_id,
        sum(value order by value) as init_finalize_s,
        list({ 'callpath': callpath, 'value_s': value } order by value desc, callpath asc) as phases
    from results
    where property = 'init_finalize_time'
    group by experiment_id
),

main_work as (
    select
        experiment_id,
        region as main_region,
        value as main_region_s,
        severity as main_region_share,
        condition as main_region_suggested
    from results
    where property = 'main_work_time'
)

select
    b.experiment_id,
    b.time_s,
    coalesce(p.init_finalize_s, 0) as init_finalize_s,
    coalesce(p.init_finalize_s, 0) / nullif(b.time_s, 0) as init_finalize_share,
    coalesce(p.phases, []) as phases,
    m.main_region,
    m.main_region_s,
    m.main_region_share,
    coalesce(m.main_region_suggested, false) as main_region_suggested
from basis as b
left join phases as p using (experiment_id)
left join main_work as m using (experiment_id)
