-- The rows the last report lists (cosydb report --tree, --format json / csv): the rows not
-- evaluable, and the rows whose condition holds and that are problems (severity above the
-- threshold; every such row at threshold 0), in the catalog's tree order. place is the call
-- path, for a function as a whole its region, else the rank basis (location_time); depth
-- counts the ancestors that have listed rows; ranks (on all-process rows) lists the listed
-- rows of the same property and place per (rank, thread), largest first.
with listed as (
    select
        r.*,
        coalesce(r.callpath, r.region || ' (all calls)', '(rank basis)') as place
    from {{ ref('property_results') }} as r
    where r.status <> 'evaluated' or (r.condition and (r.threshold <= 0 or r.is_problem))
),

shown as (
    select experiment_id, list(distinct property) as names
    from listed
    where status = 'evaluated'
    group by all
),

ranks as (
    select
        experiment_id,
        property,
        place,
        list(
            { 'rank': rank, 'thread': coalesce(thread, 0), 'value': value } order by value desc, rank asc, thread asc
        ) as ranks
    from listed
    where status = 'evaluated' and location_id is not null
    group by all
)

select
    l.*,
    c.position,
    array_length(list_filter(c.ancestors, a -> list_contains(coalesce(s.names, []), a))) as depth,
    case when l.location_id is null then coalesce(k.ranks, []) end as ranks
from listed as l
join {{ ref('property_catalog') }} as c on l.experiment_id = c.experiment_id and l.property = c.name
left join shown as s on l.experiment_id = s.experiment_id
left join ranks as k
    on l.experiment_id = k.experiment_id and l.property = k.property and l.place = k.place
