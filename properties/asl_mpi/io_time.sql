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
  application's own checkpoint routines). One row per (call path, location): io_s.
diagnosis: Not a problem by itself; see io_cost.
params:
  p_io_group: {default: null, type: VARCHAR, doc: "IO group: regular expression on region names whose time counts as I/O."}
---#}
with io_regions as (
    select region_id
    from {{ ref('region_classes') }}
    where is_io or regexp_matches(name, $p_io_group)
),

own as (
    select callpath_id, location_id, sum(excl_s) as io_s
    from {{ ref('callpath_profile') }}
    where region_id in (select region_id from io_regions)
    group by all
)

select a.ancestor_id as callpath_id, o.location_id, sum(o.io_s) as io_s
from own as o
join {{ ref('callpath_ancestors') }} as a on o.callpath_id = a.descendant_id
group by all
