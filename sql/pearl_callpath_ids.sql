-- Scalasca's order of the call paths of a trace: PEARL's Callpath ids, by
-- which Scalasca's fixed-size time maps order their entries and break ties
-- (src/scout/fixed_map.hh). The ids of the trace's own call tree
-- (callpath_definitions) where it names the call path; otherwise PEARL's
-- reconstruction (src/pearl/base/pearl_base.cpp, CallTree::merge): each
-- location numbers its call paths in the order of their first Enter, and the
-- trees are merged in (rank, thread) order, each appending the paths it adds.
-- Reconstructed call paths follow the defined ones.
-- Columns: callpath_id, pearl_order (0, 1, ... per experiment).

-- a defined call path is the call path of the same regions
with defined as (
    select d.experiment_id, d.callpath_def_id, c.callpath_id
    from {{ ref('callpath_definitions') }} as d
    join {{ ref('callpaths') }} as c
        on d.experiment_id = c.experiment_id
        and d.region_ids = c.region_ids
),

first_enters as (
    select i.experiment_id, i.callpath_id, min((l.rank, l.thread, i.enter_seq)) as first_enter
    from {{ ref('region_instances') }} as i
    join {{ ref('locations') }} as l
        on (i.experiment_id, i.location_id) = (l.experiment_id, l.location_id)
    group by all
)

select
    f.experiment_id,
    f.callpath_id,
    row_number() over (
        partition by f.experiment_id order by d.callpath_def_id nulls last, f.first_enter
    ) - 1 as pearl_order
from first_enters as f
left join (
    select experiment_id, callpath_id, min(callpath_def_id) as callpath_def_id
    from defined
    group by all
) as d
    on (f.experiment_id, f.callpath_id) = (d.experiment_id, d.callpath_id)
