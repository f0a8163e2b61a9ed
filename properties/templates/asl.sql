{#- ASL property templates and metaproperties (report §3.2, Appendix C) as Jinja
    macros. Import with context so that ref() resolves:
        {% import 'templates/asl.sql' as asl with context %}
    Every macro renders one SELECT of the result shape: callpath_id, region_id,
    location_id, condition_id, condition, confidence, severity, value, details.
-#}

{#- The loss distribution over locations as a JSON aggregate expression, for a
    GROUP BY over per-location rows: min, max, mean, the location with the
    max (the lowest such location on a tie), and the value of every location,
    in location order, so that the same rows give the same text. -#}
{% macro distribution(value='value', location='location_id') -%}
json_object(
        'min', min({{ value }}), 'max', max({{ value }}), 'mean', avg({{ value }}),
        'max_location_id', arg_max({{ location }}, case when {{ value }} is not null then ({{ value }}, -{{ location }}) end),
        'by_location_id', to_json(map(list({{ location }} order by {{ location }}), list({{ value }} order by {{ location }})))
    )::varchar
{%- endmacro %}


{#- A ratio whose denominator is 0 (or NULL) is not evaluable: ratio() is then
    NULL, never inf or NaN (a property row's severity is a finite number or
    NULL, as the engine reports what it cannot evaluate), and evaluable()
    makes the row's CONDITION NULL too, so that it is never a problem (nor
    the bottleneck) and metaproperties do not count it as holding. -#}
{% macro ratio(numerator, denominator) -%}
({{ numerator }}) / nullif({{ denominator }}, 0)
{%- endmacro %}

{% macro evaluable(condition, denominator) -%}
case when ({{ denominator }}) <> 0 then {{ condition }} end
{%- endmacro %}


{#- Cost<CostFunc> (ASL §3.4.1.2): per call path over all processes,
    CONDITION cost > 0, CONFIDENCE 1, SEVERITY cost / Duration(RankBasis, e).
    cost_column: an expression over summary, default mpi_summary (the ASL
    MPISummary: callpath_id, location_id and times); the cost over all
    processes is the sum of the per-process costs, whose distribution goes
    in details. -#}
{% macro cost(cost_column, summary=none) -%}
with per_location as (
    select callpath_id, location_id, coalesce({{ cost_column }}, 0) as value
    from {{ summary or ref('mpi_summary') }}
    where location_id is not null
)

{{ sum_over_processes('per_location cross join ' ~ ref('rank_basis') ~ ' as rank_basis', 'rank_basis.basis_s') }}
{%- endmacro %}


{#- One row per call path over all processes (location NULL) from rows per
    (callpath_id, location_id) with a value: value = their sum / per,
    CONDITION value > 0, CONFIDENCE 1, SEVERITY value / denominator; details:
    the distribution over the locations. source: the FROM clause of those rows
    (and of the denominator). Where per or the denominator is 0, value (per)
    or severity and condition are NULL (ratio(), evaluable()). -#}
{% macro sum_over_processes(source, denominator, per='1') -%}
select
    callpath_id,
    null::bigint as region_id,
    null::bigint as location_id,
    null::varchar as condition_id,
    {{ evaluable('sum(value) > 0', '(' ~ per ~ ') * any_value(' ~ denominator ~ ')') }} as condition,
    1.0::double as confidence,
    {{ ratio(ratio('sum(value)', per), 'any_value(' ~ denominator ~ ')') }} as severity,
    {{ ratio('sum(value)', per) }} as value,
    {{ distribution() }} as details
from {{ source }}
group by callpath_id
{%- endmacro %}


{#- A property of each call of an MPI communication function over all
    processes (ASL Appendix C, FuncCall r with r.CalledFunc an MPICommFunc):
    value = the sum over processes of value_column of comm_summaries;
    extras: {name: aggregate over the call's per-process rows}, usable in
    condition (which may also use value and processes.n, e.NrProcessors) and
    added to details beside the distribution; CONFIDENCE 1, SEVERITY value /
    Duration(RankBasis, e). -#}
{% macro comm_call_property(value_column, condition, extras) -%}
with per_call as (
    select
        callpath_id,
        sum({{ value_column }}) as value,
        {%- for name, aggregate in extras.items() %}
        {{ aggregate }} as {{ name }},
        {%- endfor %}
        {{ distribution(value_column) }} as details
    from {{ ref('comm_summaries') }}
    where location_id is not null
    group by callpath_id
),

processes as (
    select count(*) as n from {{ ref('processes') }}
)

select
    callpath_id,
    null::bigint as region_id,
    null::bigint as location_id,
    null::varchar as condition_id,
    {{ evaluable(condition, 'rank_basis.basis_s') }} as condition,
    1.0::double as confidence,
    {{ ratio('value', 'rank_basis.basis_s') }} as severity,
    value,
    json_merge_patch(details, json_object(
        {%- for name in extras %}'{{ name }}', {{ name }}{{ ', ' if not loop.last }}{% endfor -%}
    ))::varchar as details
from per_call
cross join processes
cross join {{ ref('rank_basis') }} as rank_basis
{%- endmacro %}


{#- DominatingCommFunction / DominatingCommCall (ASL §3.4.1.5-6): candidates
    holds one row per function (region_id) or call (callpath_id) with its Incl
    over all processes (value) and details; CONDITION value == MAX value,
    CONFIDENCE 1, SEVERITY MaxCommTime / Duration(RankBasis, e) on every row, as
    the report writes it (the dominating one's own share). -#}
{% macro dominating(candidates) -%}
select
    callpath_id,
    region_id,
    null::bigint as location_id,
    null::varchar as condition_id,
    {{ evaluable('value = max(value) over () and value > 0', 'rank_basis.basis_s') }} as condition,
    1.0::double as confidence,
    {{ ratio('max(value) over ()', 'rank_basis.basis_s') }} as severity,
    value,
    details
from {{ candidates }}
cross join {{ ref('rank_basis') }} as rank_basis
{%- endmacro %}


{#- A time property summed from pattern matches: one row per (call path,
    location) and one per call path over all processes (location NULL,
    with the distribution in details). CONDITION value > 0, SEVERITY
    value / Duration(RankBasis, e). matches: a relation with callpath_id,
    location_id and the column value_column (seconds); contexts: a relation
    of the call paths that have a row over all processes also without a match
    (value 0, condition false). A location whose matches sum to less than
    1e-14 of Duration(RankBasis, e) has no row: that is the rounding residue
    of sums of seconds (a location's time less the critical path's, 1e-19 s
    where the two are equal), which would make a row that comes and goes with
    the order DuckDB's threads add in. Measured (docs/performance.md, stop
    72): residues reach 2.4e-16 of it, the smallest true value 1.9e-12. -#}
{% macro sum_matches(matches, value_column, confidence=1.0, contexts=none) -%}
with per_location as (
    select s.callpath_id, s.location_id, s.value
    from (
        select callpath_id, location_id, sum({{ value_column }} order by {{ value_column }}) as value
        from {{ matches }}
        group by all
    ) as s
    cross join {{ ref('rank_basis') }} as rank_basis
    where abs(s.value) >= 1e-14 * coalesce(rank_basis.basis_s, 0)
),

combined as (
    select *, null::varchar as details from per_location
    union all
    select callpath_id, null::bigint, sum(value order by value), {{ distribution() }}
    from per_location
    group by callpath_id
    {%- if contexts %}
    union all
    select callpath_id, null::bigint, 0::double, null::varchar
    from {{ contexts }}
    where callpath_id not in (select callpath_id from per_location)
    {%- endif %}
)

select
    callpath_id,
    null::bigint as region_id,
    location_id,
    null::varchar as condition_id,
    {{ evaluable('value > 0', 'rank_basis.basis_s') }} as condition,
    {{ confidence }}::double as confidence,
    {{ ratio('value', 'rank_basis.basis_s') }} as severity,
    value,
    details
from combined
cross join {{ ref('rank_basis') }} as rank_basis
{%- endmacro %}


{#- A property of the summary IdleTime (ASL §3.4.1.9-10): per call path whose
    called function satisfies call_filter (an expression over region_classes),
    value = Summary(r, e).IdleTime from idle_time: over all processes for every
    such call path (0 where it never waits), per process where it waits;
    CONDITION IdleTime > 0, CONFIDENCE 1, SEVERITY IdleTime / Duration(RankBasis, e). -#}
{% macro idle_at_calls(call_filter) -%}
{%- set calls = calls(call_filter) -%}
{{ sum_matches('(select * from ' ~ ref('idle_time') ~ ' where callpath_id in ' ~ calls ~ ')', 'idle_s',
               contexts=calls) }}
{%- endmacro %}


{#- The call paths (callpath_id) of MPI calls whose function satisfies call_filter (an
    expression over region_classes), as a subquery: the contexts of a property of those
    calls (ASL FuncCall r with r.CalledFunc of an MPI class). -#}
{% macro calls(call_filter) -%}
(select c.callpath_id from {{ ref('callpaths') }} as c join {{ ref('region_classes') }} as k using (region_id) where {{ call_filter }})
{%- endmacro %}


{#- OnAllProcesses<x> (ASL §3.4.1.17) and SomeNotAllProcesses<x> (§3.4.1.21):
    metaproperties over a per-process property x, whose rows per location carry
    callpath_id or region_id (the context r). x "holds" on process p when
    condition(x(r,e,p)) AND confidence(x(r,e,p)) == 1; a process with no row for r
    does not hold. OnAllProcesses: CONDITION x holds on every process of e;
    SomeNotAllProcesses: on some but not all. Both: CONFIDENCE 1, SEVERITY
    max(severity(x(r,e,p))) over the processes where x holds (ASL leaves p
    unbound there; none where it holds on no process), as in ASL §3.2 -
    Appendix C multiplies it by e.NrProcessors, which would rank a per-process
    severity (relative to one process's duration) N times above an equal loss
    measured over all processes; value: the sum over the processes where x
    holds. The rows: the contexts x has rows for. -#}
{% macro on_all_processes(per_process) -%}
{{ _over_processes(per_process, 'held = processes.n') }}
{%- endmacro %}

{% macro some_not_all_processes(per_process) -%}
{{ _over_processes(per_process, 'held > 0 and held < processes.n') }}
{%- endmacro %}

{% macro _over_processes(per_process, holds) -%}
with per_context as (
    select
        callpath_id,
        region_id,
        count(*) filter (where holds) as held,
        max(severity) filter (where holds) as max_severity,
        sum(value) filter (where holds) as value,
        {{ distribution() }} as details
    from (
        select *, coalesce(condition and confidence = 1, false) as holds
        from {{ per_process }}
        where location_id is not null
    )
    group by callpath_id, region_id
),

processes as (
    select count(*) as n from {{ ref('processes') }}
)

select
    callpath_id,
    region_id,
    null::bigint as location_id,
    null::varchar as condition_id,
    {{ holds }} as condition,
    1.0::double as confidence,
    max_severity as severity,
    value,
    details
from per_context
cross join processes
{%- endmacro %}


{#- AllInstancesInProcess<x> (ASL §3.4.1.19) and SomeNotAllInstances<x>
    (§3.4.1.20): metaproperties over a per-instance property x, whose rows
    (one per region instance: callpath_id, location_id, enter_s, condition,
    severity, value) come from a pattern. An instance holds when
    condition(x(re)) AND severity(x(re)) > $p_instance_severity (ASL: 0.25).
    Per (call path, process): AllInstancesInProcess: CONDITION every instance
    holds; SomeNotAllInstances: some but not all; CONFIDENCE 1, SEVERITY
    max(severity(x(re))) over the instances that hold; value: that of the
    most severe of them. -#}
{% macro all_instances_in_process(instances) -%}
{{ _over_instances(instances, 'coalesce(condition and severity > $p_instance_severity, false)',
                   'count(*) filter (where holds) = count(*)') }}
{%- endmacro %}

{% macro some_not_all_instances(instances) -%}
{{ _over_instances(instances, 'coalesce(condition and severity > $p_instance_severity, false)',
                   'count(*) filter (where holds) between 1 and count(*) - 1') }}
{%- endmacro %}

{#- A per-instance property (ASL §3.4.1.18, PROPERTY ... (Exit re)) reported
    per (call path, process) by its most severe instance: CONDITION some
    instance's condition holds, SEVERITY and value of the most severe one;
    details: how many instances there are and hold, and when the worst began.
    Every instance stays queryable in the pattern the rows come from. -#}
{% macro most_severe_instance(instances) -%}
{{ _over_instances(instances, 'coalesce(condition, false)', 'bool_or(holds)') }}
{%- endmacro %}

{#- Per (call path, location) over instances: holds (an expression per
    instance) says which count; condition (an aggregate over them) is the
    property's CONDITION; SEVERITY and value are the most severe holding
    instance's (of all instances when none holds). -#}
{% macro _over_instances(instances, holds, condition) -%}
select
    callpath_id,
    null::bigint as region_id,
    location_id,
    null::varchar as condition_id,
    {{ condition }} as condition,
    1.0::double as confidence,
    coalesce(max(severity) filter (where holds), max(severity)) as severity,
    coalesce(arg_max(value, severity) filter (where holds), arg_max(value, severity)) as value,
    json_object(
        'instances', count(*), 'holding', count(*) filter (where holds),
        'most_severe_enter_s', arg_max(enter_s, severity)
    )::varchar as details
from (select *, {{ holds }} as holds from {{ instances }})
group by callpath_id, location_id
{%- endmacro %}


{#- A property with several conditions (ASL §3.4.1.12 LoadImbalanceAtBarrier):
    conditions holds one row per (context, condition) with condition_id;
    the property holds when any condition does, its CONFIDENCE and SEVERITY
    are the MAX over the conditions that hold, condition_id lists those
    (most severe first), value and details are the most severe one's. -#}
{% macro max_over_conditions(conditions) -%}
select
    callpath_id,
    region_id,
    location_id,
    string_agg(condition_id, ',' order by severity desc) filter (where condition) as condition_id,
    bool_or(condition) as condition,
    coalesce(max(confidence) filter (where condition), max(confidence)) as confidence,
    coalesce(max(severity) filter (where condition), max(severity)) as severity,
    coalesce(arg_max(value, severity) filter (where condition), arg_max(value, severity)) as value,
    coalesce(arg_max(details, severity) filter (where condition), arg_max(details, severity)) as details
from {{ conditions }}
group by callpath_id, region_id, location_id
{%- endmacro %}


{#- CacheCost<CostFunc> (ASL §3.4.1.4): per call path over all processes,
    Costs = Summary(r, e).<counter $p_counter>, CONDITION Costs > 0,
    CONFIDENCE 1, SEVERITY Costs / (Summary(RankBasis, e).LoadInstr +
    StoreInstr), the loads and stores being counters $p_load_counter and
    $p_store_counter. A summary counter of a call path is the sum of the
    exclusive counts over its call-path subtree (its inclusive count where
    every region records counters, as Score-P does). Without loads and stores
    (LoadInstr + StoreInstr = 0) the ratio is not evaluable: SEVERITY and
    CONDITION NULL. -#}
{% macro cache_cost() -%}
with counters as (
    select * from {{ ref('counter_summary') }}
),

callpath_ancestors as (
    select * from {{ ref('callpath_ancestors') }}
),

per_location as (
    select a.ancestor_id as callpath_id, s.location_id, sum(s.excl) as value
    from counters as s
    join callpath_ancestors as a on a.descendant_id = s.callpath_id
    where s.counter = $p_counter
    group by all
),

instructions as (
    select sum(s.excl) as n
    from counters as s
    join callpath_ancestors as a on a.descendant_id = s.callpath_id
    where a.ancestor_id in (select callpath_id from {{ ref('rank_basis_paths') }})
        and s.counter in ($p_load_counter, $p_store_counter)
)

{{ sum_over_processes('per_location cross join instructions', 'instructions.n') }}
{%- endmacro %}


{#- CacheCostPerInstance<CostFunc> (ASL §3.4.1.18) as a pattern: one row per
    region instance (Exit re) with counter records: value = its count of
    $p_counter, CONDITION value > 0, SEVERITY value / (re.LoadInstr +
    re.StoreInstr) over counters $p_load_counter and $p_store_counter; an
    instance without loads and stores has SEVERITY and CONDITION NULL. -#}
{% macro cache_cost_per_instance() -%}
with per_instance as (
    select
        location_id,
        enter_seq,
        any_value(callpath_id) as callpath_id,
        sum(incl) filter (where counter = $p_counter) as value,
        sum(incl) filter (where counter in ($p_load_counter, $p_store_counter)) as instructions
    from {{ ref('counter_instances') }}
    group by location_id, enter_seq
)

select
    p.callpath_id,
    p.location_id,
    p.enter_seq,
    i.enter_s,
    p.value,
    p.instructions,
    {{ evaluable('p.value > 0', 'p.instructions') }} as condition,
    {{ ratio('p.value', 'p.instructions') }} as severity
from per_instance as p
join {{ ref('region_instances') }} as i using (location_id, enter_seq)
where p.value is not null
{%- endmacro %}
