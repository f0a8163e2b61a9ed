{#---
kind: pattern
parent: null
unit: s
columns: {callpath_id: BIGINT, location_id: BIGINT, io_s: DOUBLE}
info: The ASL summary IoTime of every call path and process, with a user-defined I/O group.
description: |
  ASL §2.3.1 MPISummary.IoTime: the exclusive time of file-I/O calls in the call
  path's subtree - MPI-IO and other file I/O (region_classes.is_io) plus the regions
  of the IO group, whose names match the regular expression $p_io_group (e.g. the
  application's own checkpoint routines) - and the duration of each file operation
  recorded outside all of those (file_operations: OTF's FileOperation records without an
  I/O call around them), at the call path running when it started. One row per
  (call path, location): io_s.
diagnosis: Not a problem by itself; see io_cost.
params:
  p_io_group: {default: null, type: VARCHAR, doc: "IO group: regular expression on region names whose time counts as I/O."}
---#}
with io_regions as (
    select region_id
    from {{ ref('region_classes') }}
    where is_io or regexp_matches(name, $p_io_group)
),

io_calls as (
    select callpath_id, location_id, excl_s as io_s
    from {{ ref('callpath_profile') }}
    where region_id in (select region_id from io_regions)
),

-- each file operation with the region instances open when it started
file_operations as (
    select row_number() over (order by location_id, time) as operation_id, *
    from {{ ref('file_operations') }}
),

open_at_start as (
    select
        f.operation_id,
        f.location_id,
        f.duration / e.timer_resolution as io_s,
        i.callpath_id,
        i.depth,
        i.region_id in (select region_id from io_regions) as in_io_region
    from file_operations as f
    join {{ ref('experiments') }} as e using (experiment_id)
    join {{ ref('region_instances') }} as i
        on
            f.location_id = i.location_id
            and f.time >= i.enter_time
            and f.time < i.leave_time
),

-- outside every I/O region: at the innermost instance (its time is not in io_calls)
file_operations_outside as (
    select location_id, arg_max(callpath_id, depth) as callpath_id, any_value(io_s) as io_s
    from open_at_start
    group by operation_id, location_id
    having not bool_or(in_io_region)
),

own as (
    select callpath_id, location_id, sum(io_s) as io_s
    from (
        select callpath_id, location_id, io_s from io_calls
        union all
        select callpath_id, location_id, io_s from file_operations_outside
    ) as io
    group by all
)

select a.ancestor_id as callpath_id, o.location_id, sum(o.io_s) as io_s
from own as o
join {{ ref('callpath_ancestors') }} as a on o.callpath_id = a.descendant_id
group by all
