-- The ASL OpenMP summary (report §2.3.3, SmRegionSummary) of every region of the
-- ASL summary input, per call path: one row for the region's sums (location_id and
-- instance_no NULL), one per thread (thread_sums: location_id of the thread) and one
-- per region instance (instance_sums: instance_no 1, 2, ...). kind is the ASL class
-- (Function, IfBlock, BasicBlock, FunctionCall, PRegion, PSection, PDo). Columns:
-- nr_executions (of the master thread, sums rows), nr_threads (instance rows),
-- duration and region_ctrl (master thread), non_parallelized_code, scheduling,
-- additional_calc, cross_thread_dep_ctrl, cross_thread_dep_wait, region_wait (means
-- over the threads; all in seconds), nr_remote_accesses, nr_cache_misses (counts).
select
    s.experiment_id,
    c.callpath_id,
    r.kind,
    s.* exclude (experiment_id, cnode_id)
from {{ ref('sm_sums') }} as s
join {{ ref('summary_regions') }} as r using (experiment_id, cnode_id)
join {{ ref('cnode_callpaths') }} as c using (experiment_id, cnode_id)
