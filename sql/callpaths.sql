-- The call-path tree: one row per distinct call path of an experiment, from
-- the region instances of a trace or the call-tree nodes of a profile.
-- path is the region names from the root down joined by '/', e.g.
-- 'prog/main/solver/MPI_Recv'; callpath_id numbers the paths of an
-- experiment in path order (two paths of regions of the same names in the
-- order of their hashes); depth 1 is a root. ancestor_ids is the path's
-- call paths from the root down, itself last (ancestor_ids[depth] =
-- callpath_id): callpath_ancestors unnests it, no walk up the tree.
-- region_ids is their regions (region_ids[depth] = region_id), as
-- callpath_definitions lists a definition's.
{{ config(materialized='table') }}
with recursive distinct_paths as materialized (
    select distinct experiment_id, path_hash, parent_hash, region_id
    from {{ ref('instance_paths') }}

    union

    select experiment_id, path_hash, parent_hash, region_id
    from {{ ref('cnode_paths') }}
),

named as (
    select
        p.experiment_id,
        p.path_hash,
        p.parent_hash,
        p.region_id,
        1 as depth,
        r.name as path,
        [p.path_hash] as ancestor_hashes,
        [p.region_id] as region_ids
    from distinct_paths as p
    join {{ ref('regions') }} as r
        on p.experiment_id = r.experiment_id and p.region_id = r.region_id
    where p.parent_hash is null

    union all

    select
        p.experiment_id,
        p.path_hash,
        p.parent_hash,
        p.region_id,
        n.depth + 1 as depth,
        n.path || '/' || r.name as path,
        list_append(n.ancestor_hashes, p.path_hash) as ancestor_hashes,
        list_append(n.region_ids, p.region_id) as region_ids
    from distinct_paths as p
    join named as n
        on p.experiment_id = n.experiment_id and p.parent_hash = n.path_hash
    join {{ ref('regions') }} as r
        on p.experiment_id = r.experiment_id and p.region_id = r.region_id
),

numbered as (
    select
        *,
        row_number() over (partition by experiment_id order by path, path_hash) as callpath_id
    from named
),

-- one row per (path, ancestor's hash)
ancestor_rows as (
    select experiment_id, path_hash, unnest(ancestor_hashes) as ancestor_hash
    from numbered
),

-- each path's ancestors (a root first) as their callpath_ids
ancestry as (
    select
        h.experiment_id,
        h.path_hash,
        list(a.callpath_id order by a.depth) as ancestor_ids
    from ancestor_rows as h
    join numbered as a
        on h.experiment_id = a.experiment_id
        and h.ancestor_hash = a.path_hash
    group by h.experiment_id, h.path_hash
)

select
    child.experiment_id,
    child.callpath_id,
    parent.callpath_id as parent_id,
    child.region_id,
    child.depth,
    child.path,
    child.path_hash,
    ancestry.ancestor_ids,
    child.region_ids
from numbered as child
left join numbered as parent
    on child.experiment_id = parent.experiment_id
    and child.parent_hash = parent.path_hash
join ancestry
    on child.experiment_id = ancestry.experiment_id
    and child.path_hash = ancestry.path_hash
