-- The call path (callpaths.callpath_id) of every call-tree node of a profile or of
-- ASL summary input: the place where their per-node values join the call-path tables.
-- Stored at load, by the engine that computed callpaths: a path hash is the engine's own
-- (DuckDB's hash, Spark's xxhash64), so the join must never mix two engines' hashes.
{{ config(materialized='table') }}
select p.experiment_id, p.cnode_id, c.callpath_id
from {{ ref('cnode_paths') }} as p
join {{ ref('callpaths') }} as c using (experiment_id, path_hash)
