-- The report's root-cause section (cosydb report), part two: what caused the waiting.
-- Over the last report's property_results and the catalog it used: per class of wait
-- state (Scalasca's delay classes, as each wait state's header declares it:
-- property_catalog.wait_class - latesender, latereceiver, barrier, n2n, 12n, n21,
-- ompbarrier, ompidle), the time waited (its wait-state metrics over all processes) and
-- every (call path, location) whose delay caused it: short_term_s (delay_<class>, the
-- excess work in the synchronisation interval) and long_term_s (delay_<class>_longterm,
-- waiting it caused through the waits it propagated to), cause_s their sum. cause_index
-- numbers the causes of a class, largest first; class_index the classes, most explained
-- first. Columns: class, wait_label (the report's name of the waiting it explains, its
-- wait states'), waited_s, explained_s (the class's causes summed), class_index,
-- callpath_id, callpath, location_id, rank, thread, short_term_s, long_term_s, cause_s,
-- cause_index.
with classes as (
    select experiment_id, wait_class as class, name as wait_metric, wait_label
    from {{ ref('property_catalog') }}
    where wait_class is not null
),

results as (
    select * from {{ ref('property_results') }}
    where status = 'evaluated'
),

waited as (
    select r.experiment_id, c.class, sum(r.value) as waited_s
    from results as r
    join classes as c on r.experiment_id = c.experiment_id and r.property = c.wait_metric
    where r.location_id is null
    group by all
),

labels as (
    select experiment_id, class, min(wait_label) as wait_label
    from classes
    group by all
),

causes as (
    select
        experiment_id,
        regexp_extract(property, '^delay_(.*?)(_longterm)?$', 1) as class,
        callpath_id,
        any_value(callpath) as callpath,
        location_id,
        sum(value) filter (where not property like '%\_longterm' escape '\') as short_term_s,
        sum(value) filter (where property like '%\_longterm' escape '\') as long_term_s
    from results
    where property in (select 'delay_' || class from classes union select 'delay_' || class || '_longterm' from classes)
        and location_id is not null
    group by experiment_id, class, callpath_id, location_id
),

ranked as (
    select
        c.*,
        coalesce(c.short_term_s, 0) + coalesce(c.long_term_s, 0) as cause_s,
        sum(coalesce(c.short_term_s, 0) + coalesce(c.long_term_s, 0))
            over (partition by c.experiment_id, c.class) as explained_s
    from causes as c
)

select
    r.experiment_id,
    r.class,
    n.wait_label,
    coalesce(w.waited_s, 0) as waited_s,
    r.explained_s,
    dense_rank() over (partition by r.experiment_id order by r.explained_s desc, r.class asc) as class_index,
    r.callpath_id,
    r.callpath,
    r.location_id,
    l.rank,
    l.thread,
    coalesce(r.short_term_s, 0) as short_term_s,
    coalesce(r.long_term_s, 0) as long_term_s,
    r.cause_s,
    row_number() over (
        partition by r.experiment_id, r.class order by r.cause_s desc, r.callpath asc, l.rank asc, l.thread asc
    ) as cause_index
from ranked as r
join {{ ref('locations') }} as l using (experiment_id, location_id)
join labels as n using (experiment_id, class)
left join waited as w using (experiment_id, class)
