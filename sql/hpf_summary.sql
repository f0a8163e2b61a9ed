-- The ASL HPF summary (report §2.3.2, HPFRegionSummary) of every region of the ASL
-- summary input, per call path: one row for the means over the processes executing
-- the region (sums: location_id NULL) and one per process (proc_sums). kind is the
-- ASL class (HPFProcedure, HPFLoop, HPFRedistribute, ...), ltype the loop type (DO,
-- INDEPENDENT, FORALL). Columns: nr_executions, duration, comm_time, dep_comm_time,
-- align_comm_time, sync_time, idle_time, io_time, compiler_ovh_time, inspector_time,
-- impl_redistr_time, expl_redistr_time (seconds), nr_cache_misses.
select
    s.experiment_id,
    c.callpath_id,
    r.kind,
    r.ltype,
    s.* exclude (experiment_id, cnode_id)
from {{ ref('hpf_sums') }} as s
join {{ ref('summary_regions') }} as r using (experiment_id, cnode_id)
join {{ ref('cnode_callpaths') }} as c using (experiment_id, cnode_id)
