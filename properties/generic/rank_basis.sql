{#---
kind: pattern
parent: null
unit: s
info: Duration of the rank-basis region summed over all processes, the denominator of severities.
description: |
  ASL §3.4.1.1: Duration(RankBasis, e) = Summary(RankBasis, e).Incl, the inclusive
  time of the rank-basis region summed over all processes. Without a rank basis
  (--rank-basis): the whole run, i.e. the program's root call paths. Instances of
  the region nested in another instance of it (recursion) are not counted twice.
  One row: basis_s (seconds), instances.
diagnosis: Not a problem; choose the rank basis (e.g. the solver loop) to rank problems against it.
---#}
with instances as (
    select * from {{ ref('region_instances') }}
),

callpaths as (
    select * from {{ ref('callpaths') }}
),

regions as (
    select * from {{ ref('regions') }}
),

callpath_ancestors as (
    select * from {{ ref('callpath_ancestors') }}
),

named_paths as (
    select c.callpath_id, c.depth, r.name
    from callpaths as c
    join regions as r using (region_id)
),

-- call paths of the basis region that do not lie below another of its call paths
basis_paths as (
    select p.callpath_id
    from named_paths as p
    where case when $p_rank_basis is null then p.depth = 1 else p.name = $p_rank_basis end
        and not exists (
            select 1
            from callpath_ancestors as a
            join named_paths as up on up.callpath_id = a.ancestor_id
            where a.descendant_id = p.callpath_id and a.distance > 0 and up.name = p.name
        )
)

select sum(incl_s) as basis_s, count(*) as instances
from instances
where callpath_id in (select callpath_id from basis_paths)
