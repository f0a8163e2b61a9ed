{#- The ASL OpenMP (§3.4.3) and HPF (§3.4.2) templates over ASL summary input.
    Import with: {% import 'templates/asl_summary.sql' as summary with context %} -#}

{#- The region sums of the OpenMP summary (sm_summary) or the HPF summary (hpf_summary). -#}
{% macro region_sums(paradigm) -%}
{%- if paradigm == 'openmp' -%}
(select * from {{ ref('sm_summary') }} where location_id is null and instance_no is null)
{%- else -%}
(select * from {{ ref('hpf_summary') }} where location_id is null)
{%- endif -%}
{%- endmacro %}


{#- A machine constant of the experiment (system_constants), e.g. remote_access_time;
    nr_processors of a trace: the most threads of a process (parallel_instances). -#}
{% macro constant(name) -%}
{%- if name == 'nr_processors' -%}
coalesce((select value from {{ ref('system_constants') }} where name = 'nr_processors'),
         (select max(process_threads) from {{ ref('parallel_instances') }}), 1)
{%- else -%}
(select value from {{ ref('system_constants') }} where name = '{{ name }}')
{%- endif -%}
{%- endmacro %}


{#- The result rows of an ASL OpenMP/HPF property over rows (a relation with
    callpath_id, aliased r): CONDITION condition (false when NULL), CONFIDENCE confidence,
    SEVERITY cost / duration(rank_basis, e) (summary_rank_basis), value, details JSON. -#}
{% macro result(rows, condition, cost, value=none, details='null', confidence='1.0', condition_id='null') -%}
select
    r.callpath_id,
    null::bigint as region_id,
    null::bigint as location_id,
    ({{ condition_id }})::varchar as condition_id,
    coalesce({{ condition }}, false) as condition,
    ({{ confidence }})::double as confidence,
    ({{ cost }}) / basis.basis_s as severity,
    {{ value if value is not none else cost }} as value,
    ({{ details }})::varchar as details
from {{ rows }} as r
cross join {{ ref('summary_rank_basis') }} as basis
{%- endmacro %}


{#- ASL PROPERTY TEMPLATE costs<cost_func>: one row per region (call path) whose sums
    give cost = cost_expr (an expression over the region sums s); CONDITION cost > 0,
    CONFIDENCE 1, SEVERITY cost / duration(rank_basis, e). where: an extra filter on s;
    with baseline, the region's duration in the --baseline experiment is b.seq_duration
    (regions matched by call path; regions missing there have no row). -#}
{% macro costs(paradigm, cost_expr, where='true', baseline=false) -%}
{%- set rows -%}
(
    select s.*, {{ cost_expr }} as cost
    from {{ region_sums(paradigm) }} as s
    {%- if baseline %}
    join {{ ref('callpaths') }} as c using (callpath_id)
    join {{ baseline_durations(paradigm) }} as b using (path)
    {%- endif %}
    where {{ where }}
)
{%- endset -%}
{{ result(rows, 'r.cost > 0', 'r.cost') }}
{%- endmacro %}


{#- OpenMP sync(r, e) (ASL §3.4.3.1) of a relation with the SmSums fields. -#}
{% macro sync(s='s') -%}
(coalesce({{ s }}.region_wait, 0) + coalesce({{ s }}.region_ctrl, 0)
 + coalesce({{ s }}.cross_thread_dep_wait, 0) + coalesce({{ s }}.cross_thread_dep_ctrl, 0))
{%- endmacro %}


{#- OpenMP measurable parallel costs (ASL §3.4.3.5): non-parallelized code, sync, remote
    access time (remote accesses x the machine's remote_access_time, 0 without them),
    scheduling and additional computation. -#}
{% macro measurable(s='s') -%}
(coalesce({{ s }}.non_parallelized_code, 0) + {{ sync(s) }}
 + coalesce({{ s }}.nr_remote_accesses * {{ constant('remote_access_time') }}, 0)
 + coalesce({{ s }}.scheduling, 0) + coalesce({{ s }}.additional_calc, 0))
{%- endmacro %}


{#- The region durations of the baseline (sequential) experiment matched by call path
    name: columns path, seq_duration. OpenMP: its summary input, else (a sequential trace
    or profile) the master thread's inclusive time per call path (callpath_profile). -#}
{% macro baseline_durations(paradigm) -%}
{%- if paradigm == 'openmp' -%}
(select c.path, coalesce(any_value(i.duration), sum(p.incl_s) filter (where l.thread = 0)) as seq_duration
 from {{ baseline_ref('callpaths') }} as c
 left join (select * from {{ baseline_ref('sm_summary_input') }} where location_id is null and instance_no is null) as i
     using (experiment_id, callpath_id)
 left join {{ baseline_ref('callpath_profile') }} as p using (experiment_id, callpath_id)
 left join {{ baseline_ref('locations') }} as l on l.location_id = p.location_id
 group by c.path)
{%- else -%}
(select c.path, s.duration as seq_duration
 from {{ baseline_ref('hpf_summary') }} as s
 join {{ baseline_ref('callpaths') }} as c using (experiment_id, callpath_id)
 where s.location_id is null)
{%- endif -%}
{%- endmacro %}
