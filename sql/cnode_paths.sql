-- The call-tree nodes of a profile (cnodes) with the hash of their call path,
-- computed as instance_paths does for a trace's region instances: path_hash
-- hashes the region ids from the root down, parent_hash is the parent node's.
-- Nodes that differ only by call site or parameter share one call path.
with recursive paths as (
    select
        experiment_id,
        cnode_id,
        region_id,
        hash(region_id) as path_hash,
        null::ubigint as parent_hash
    from {{ ref('cnodes') }}
    where parent_id is null

    union all

    select
        child.experiment_id,
        child.cnode_id,
        child.region_id,
        hash(parent.path_hash, child.region_id) as path_hash,
        parent.path_hash as parent_hash
    from {{ ref('cnodes') }} as child
    join paths as parent
        on child.experiment_id = parent.experiment_id
        and child.parent_id = parent.cnode_id
)

select * from paths
