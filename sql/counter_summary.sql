-- Hardware-counter values per (experiment, call path, location, counter), like
-- the cache-miss members of the ASL MPISummary: incl, excl in counter units and
-- executions, the number of instances measured. From a trace: the sums over the
-- call path's instances of counter_instances. From a profile: the counter
-- metrics (those listed in metrics) of the call path's nodes, executions being
-- their visits.
{{ config(materialized='table') }}
with from_trace as (
    select
        experiment_id,
        callpath_id,
        location_id,
        counter,
        any_value(unit) as unit,
        count(*) as executions,
        sum(incl) as incl,
        sum(excl) as excl
    from {{ ref('counter_instances') }}
    group by experiment_id, callpath_id, location_id, counter
),

profile_cells as (
    select v.*, c.callpath_id
    from {{ ref('profile_values') }} as v
    join {{ ref('cnode_callpaths') }} as c using (experiment_id, cnode_id)
),

from_profile as (
    select
        v.experiment_id,
        v.callpath_id,
        v.location_id,
        m.name as counter,
        any_value(m.unit) as unit,
        sum(v.inclusive) as incl,
        sum(v.exclusive) as excl
    from profile_cells as v
    join {{ ref('metrics') }} as m using (experiment_id, metric_id)
    group by all
),

profile_visits as (
    select v.experiment_id, v.callpath_id, v.location_id, sum(v.exclusive)::bigint as executions
    from profile_cells as v
    join {{ ref('profile_metrics') }} as m using (experiment_id, metric_id)
    where m.name = 'visits'
    group by all
)

select * from from_trace

union all

select
    c.experiment_id,
    c.callpath_id,
    c.location_id,
    c.counter,
    c.unit,
    coalesce(v.executions, 0) as executions,
    c.incl,
    c.excl
from from_profile as c
left join profile_visits as v using (experiment_id, callpath_id, location_id)
