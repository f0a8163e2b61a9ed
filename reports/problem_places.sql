-- The places of the default report's problems: where each property holds, most specific
-- first, with what it contains and what else holds there (cosydb report; docs/properties.md).
-- Over the last report's property_results and the catalog it used (property_catalog).
--
-- A candidate is an all-process row of a problem (not a metric such as critical_path:
-- property_catalog.problem) whose condition holds with severity > 0. A wait
-- state's rows (property_catalog.wait_state: Late Sender, barrier waits, idle threads,
-- ...) are exclusive, so each counts; another property's row at a call path holds the
-- rows below it (total_cost at main), so only its deepest rows count (leaves). A wait
-- state holding at the place of a wait-state ancestor of it is part of that place
-- (parts: "of which"); another property holding at a wait state's call path (or, for a
-- function as a whole, at one of its calls) is listed on the most severe such place
-- (also: "also holds here"; a wait state that is a part of it first), else on the most
-- severe other property at its place, else it is a place of its own. locations: the
-- place's rows per (rank, thread), largest first. A property that measures what another
-- one measures (property_catalog.same_as: ASL's idle_late_sender is Scalasca's
-- mpi_latesender at blocking receives) is no place of its own where that one holds at the
-- same place with the same value: it is named on that place (same: property, family).
with all_candidates as (
    select
        row_number() over () as id,
        r.experiment_id,
        r.property,
        r.callpath_id,
        r.callpath,
        r.region,
        r.condition_id,
        r.value,
        r.severity,
        r.confidence,
        r.unit,
        c.wait_state,
        c.ancestors,
        c.same_as,
        c.family,
        coalesce(r.callpath, r.region || ' (all calls)') as place
    from {{ ref('property_results') }} as r
    join {{ ref('property_catalog') }} as c
        on r.experiment_id = c.experiment_id and r.property = c.name
    where r.status = 'evaluated' and r.condition and r.location_id is null and r.severity > 0 and c.problem
),

-- the same value, to 1e-9 of it, at the same place: a twin the catalog declares
same as (
    select c.id, t.id as twin_id, c.property, c.family
    from all_candidates as c
    join all_candidates as t
        on c.experiment_id = t.experiment_id and c.same_as = t.property and c.place = t.place
        and c.condition_id is not distinct from t.condition_id
        and abs(c.value - t.value) <= 1e-9 * abs(t.value)
),

candidates as (
    select * exclude (same_as, family)
    from all_candidates
    anti join same using (id)
),

leaves as (
    select c.*
    from candidates as c
    where c.callpath_id is null or c.wait_state or not exists (
        select 1
        from candidates as d
        join {{ ref('callpath_ancestors') }} as a
            on d.experiment_id = a.experiment_id and d.callpath_id = a.descendant_id
        where d.experiment_id = c.experiment_id and d.property = c.property
            and a.ancestor_id = c.callpath_id and a.distance > 0
    )
),

waits as (
    select * from leaves where wait_state
),

-- a wait state at the place of one of its wait-state ancestors is a part of the topmost one
wait_owner as (
    select
        w.id,
        any_value(w.experiment_id) as experiment_id,
        any_value(w.place) as place,
        arg_min(o.property, [array_length(o.ancestors), -o.severity]) as owner
    from waits as w
    join waits as o
        on w.experiment_id = o.experiment_id and w.place = o.place and list_contains(w.ancestors, o.property)
    group by all
),

wait_places as (
    select w.*
    from waits as w
    anti join wait_owner as o using (id)
),

others as (
    select * from leaves where not wait_state
),

-- another property on the most severe wait place at its call path (a function as a whole:
-- at one of its calls)
other_host as (
    select
        o.id,
        -- a wait state that is a part of the other property first (late_sender for comm_cost),
        -- then the most severe, the most general (fewest ancestors), by name
        arg_min(w.property, (not list_contains(w.ancestors, o.property), -w.severity, array_length(w.ancestors),
            w.property)) as host_property,
        arg_min(w.place, (not list_contains(w.ancestors, o.property), -w.severity, array_length(w.ancestors),
            w.property)) as host_place
    from others as o
    join wait_places as w
        on o.experiment_id = w.experiment_id
        and (o.callpath_id = w.callpath_id or (o.callpath_id is null and w.callpath_id is not null
            and o.region = w.region))
    group by all
),

unhosted as (
    select
        o.*,
        row_number() over (partition by o.experiment_id, o.place order by o.severity desc, o.property asc) as k
    from others as o
    anti join other_host as h using (id)
),

places as (
    select * exclude (k) from unhosted where k = 1
    union all  -- both: the columns of leaves, in its order
    select * from wait_places
),

-- what else holds at each place, most severe first
also as (
    select o.experiment_id, h.host_property as property, h.host_place as place,
        list(o.property order by o.severity desc, o.property asc) as also
    from other_host as h
    join others as o using (id)
    group by all
    union all
    select experiment_id, arg_min(property, k), place, list(property order by k) filter (where k > 1)
    from unhosted
    group by experiment_id, place
    having count(*) > 1
),

parts as (
    select
        o.experiment_id,
        o.owner as property,
        o.place,
        list({ 'property': w.property, 'value': w.value } order by w.value desc) as parts
    from wait_owner as o
    join waits as w using (id)
    group by all
),

located as (
    select
        r.experiment_id,
        r.property,
        coalesce(r.callpath, r.region || ' (all calls)') as place,
        r.condition_id,
        r.rank,
        coalesce(r.thread, 0) as thread,
        sum(r.value) as value
    from {{ ref('property_results') }} as r
    where r.status = 'evaluated' and r.location_id is not null and r.condition and r.value <> 0
    group by all
)

select
    p.experiment_id,
    p.id,
    p.property,
    p.place,
    p.callpath,
    p.region,
    p.condition_id,
    p.value,
    p.severity,
    p.confidence,
    p.unit,
    p.wait_state,
    coalesce(a.also, []) as also,
    coalesce(s.parts, []) as parts,
    coalesce((
        select list({ 'property': m.property, 'family': m.family } order by m.property)
        from same as m
        where m.twin_id = p.id
    ), []) as same,
    coalesce((
        select
            list(
                { 'rank': l.rank, 'thread': l.thread, 'value': l.value } order by l.value desc, l.rank asc, l.thread asc
            )
        from located as l
        where l.experiment_id = p.experiment_id and l.property = p.property and l.place = p.place
            and l.condition_id is not distinct from p.condition_id
    ), []) as locations
from places as p
left join also as a using (experiment_id, property, place)
left join parts as s using (experiment_id, property, place)
