{#- ASL property templates and the aggregation shared by pattern-based
    properties. Import with context so that ref() resolves:
        {% import 'templates/asl.sql' as asl with context %}
-#}

{#- Cost<CostFunc> (ASL §3.4.1.2): per call path over all processes,
    CONDITION cost > 0, CONFIDENCE 1, SEVERITY cost / Duration(RankBasis, e).
    cost_column names a time column of mpi_summary (the ASL MPISummary);
    details carry the cost's distribution over the processes. -#}
{% macro cost(cost_column) -%}
with mpi_summary as (
    select * from {{ ref('mpi_summary') }}
),

rank_basis as (
    select basis_s from {{ ref('rank_basis') }}
),

per_location as (
    select callpath_id, location_id, coalesce({{ cost_column }}, 0) as value
    from mpi_summary
    where location_id is not null
),

all_processes as (
    select callpath_id, coalesce({{ cost_column }}, 0) as value
    from mpi_summary
    where location_id is null
)

select
    a.callpath_id,
    null::bigint as location_id,
    null::varchar as condition_id,
    a.value > 0 as condition,
    1.0::double as confidence,
    a.value / rank_basis.basis_s as severity,
    a.value,
    d.details
from all_processes as a
cross join rank_basis
join ({{ distribution('per_location') }}) as d using (callpath_id)
{%- endmacro %}


{#- The loss distribution over locations of one call path, as JSON:
    min, max, mean over the locations listed, the location with the max,
    and the value of every location. rows: a relation with callpath_id,
    location_id, value. -#}
{% macro distribution(rows) -%}
select
    callpath_id,
    json_object(
        'min', min(value), 'max', max(value), 'mean', avg(value),
        'max_location_id', arg_max(location_id, value),
        'by_location_id', json_group_object(location_id, value)
    )::varchar as details
from {{ rows }}
group by callpath_id
{%- endmacro %}


{#- A time property summed from pattern matches: one row per (call path,
    location) and one per call path over all processes (location NULL,
    with the distribution in details). CONDITION value > 0, SEVERITY
    value / Duration(RankBasis, e). matches: a relation with callpath_id,
    location_id and the column value_column (seconds). -#}
{% macro sum_matches(matches, value_column, confidence=1.0) -%}
with matches as (
    select callpath_id, location_id, {{ value_column }} as value from {{ matches }}
),

rank_basis as (
    select basis_s from {{ ref('rank_basis') }}
),

per_location as (
    select callpath_id, location_id, sum(value) as value
    from matches
    group by all
),

all_processes as (
    select p.callpath_id, null::bigint as location_id, sum(p.value) as value, any_value(d.details) as details
    from per_location as p
    join ({{ distribution('per_location') }}) as d using (callpath_id)
    group by p.callpath_id
),

combined as (
    select *, null::varchar as details from per_location
    union all by name
    select * from all_processes
)

select
    callpath_id,
    location_id,
    null::varchar as condition_id,
    value > 0 as condition,
    {{ confidence }}::double as confidence,
    value / rank_basis.basis_s as severity,
    value,
    details
from combined
cross join rank_basis
{%- endmacro %}
