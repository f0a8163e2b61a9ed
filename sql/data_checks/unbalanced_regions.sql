-- Enter/Leave nesting: instances never left, Leaves that close a different
-- region than the innermost open one, and Leaves with no open instance.
select
    'unbalanced_regions' as "check",
    location_id,
    count(*) as count,
    case
        when leave_seq is null then 'region entered but never left'
        else 'Leave of a region other than the innermost open one'
    end as detail
from {{ ref('instance_tree') }}
where leave_seq is null or leave_region_id <> region_id
group by all

union all

select
    'unbalanced_regions',
    location_id,
    count(*),
    'Leave without a matching Enter'
from {{ ref('region_events') }}
where region_event = 'LEAVE' and level <= 0
group by all
