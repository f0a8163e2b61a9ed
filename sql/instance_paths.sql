-- Every region instance of instance_tree with the hash of its call path:
-- path_hash hashes the region ids from the root down, parent_hash is the
-- caller's path_hash (NULL at the top). Walks the call tree from the
-- top-level instances down, one level per step.
with recursive paths as (
    select
        *,
        hash(region_id) as path_hash,
        null::ubigint as parent_hash
    from {{ ref('instance_tree') }}
    where caller_seq is null

    union all

    select
        child.*,
        hash(parent.path_hash, child.region_id) as path_hash,
        parent.path_hash as parent_hash
    from {{ ref('instance_tree') }} as child
    join paths as parent
        on child.experiment_id = parent.experiment_id
        and child.location_id = parent.location_id
        and child.caller_seq = parent.enter_seq
)

select * from paths
