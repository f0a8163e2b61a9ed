-- The problems of the default report (cosydb report): one entry per property over its
-- places (problem_places), most severe first. value is the sum over the places (disjoint
-- call paths); severity is, for a time, value / the time of all locations (threads
-- included) in the rank basis (the property location_time: one scale for every time, as
-- the ASL report's "global conversion functions between categories" ask), else the sum of
-- the places' ASL severities; asl_severity is that sum for times too (each property's
-- own, e.g. over processes' time). place is the most severe place's (of equal ones the
-- first by name, so that a tie gives the same report every time); parts sum the wait
-- states it contains by property; same lists the properties that measure the same there
-- (same_as); also is what else holds at that place; locations sum the places' per (rank,
-- thread), largest first. An entry is a problem when its severity exceeds the report's
-- threshold; rank 1 is the bottleneck.
with basis as (
    select experiment_id, value as time_s
    from {{ ref('property_results') }}
    where property = 'location_time' and status = 'evaluated' and location_id is null and value > 0
),

places as (
    select
        p.* exclude (severity),
        p.severity as asl_severity,
        case when p.unit = 's' and b.time_s is not null then p.value / b.time_s else p.severity end as severity
    from {{ ref('problem_places') }} as p
    left join basis as b using (experiment_id)
),

thresholds as (
    select experiment_id, max(threshold) as threshold
    from {{ ref('property_results') }}
    group by all
),

entries as (
    select
        experiment_id,
        property,
        any_value(unit) as unit,
        sum(value) as value,
        sum(severity) as severity,
        sum(asl_severity) as asl_severity,
        (list(place order by severity desc, place asc))[1] as place,
        (list(also order by severity desc, place asc))[1] as also,
        list_sort(list_distinct(flatten(list(same)))) as same,
        list({ 'place': place, 'callpath': callpath, 'region': region, 'condition_id': condition_id,
              'value': value, 'severity': severity, 'asl_severity': asl_severity, 'confidence': confidence,
              'locations': locations }
             order by severity desc, place asc) as places
    from places
    group by all
),

entry_parts as (
    select experiment_id, property, list({ 'property': part, 'value': value } order by value desc, part asc) as parts
    from (
        select p.experiment_id, p.property, x.part.property as part, sum(x.part.value) as value
        from places as p, unnest(p.parts) as x (part)
        group by all
    ) as per_part
    group by all
),

entry_locations as (
    select experiment_id, property,
        list({ 'rank': rank, 'thread': thread, 'value': value } order by value desc, rank asc, thread asc) as locations
    from (
        select p.experiment_id, p.property, x.l.rank, x.l.thread, sum(x.l.value) as value
        from places as p, unnest(p.locations) as x (l)
        group by all
    ) as per_location
    group by all
)

select
    e.experiment_id,
    row_number() over (partition by e.experiment_id order by e.severity desc, e.property asc) as rank,
    e.property,
    c.info,
    e.unit,
    e.value,
    e.severity,
    e.asl_severity,
    e.place,
    e.places,
    coalesce(p.parts, []) as parts,
    e.same,
    e.also,
    coalesce(l.locations, []) as locations
from entries as e
join thresholds as t using (experiment_id)
join {{ ref('property_catalog') }} as c on e.experiment_id = c.experiment_id and e.property = c.name
left join entry_parts as p using (experiment_id, property)
left join entry_locations as l using (experiment_id, property)
where e.severity > t.threshold
