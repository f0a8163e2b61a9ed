-- Hardware-counter deltas per (experiment, call path, location, counter), like
-- the cache-miss members of the ASL MPISummary: the sums over the call path's
-- instances of counter_instances (incl, excl in counter units), with the number
-- of instances measured (executions).
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
