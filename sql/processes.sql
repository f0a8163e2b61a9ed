-- The processes of an experiment (ASL e.Processes): one row per MPI rank (or
-- single process) with the location of its master thread, which holds the
-- process's MPI calls. Columns: location_id, location_group_id, rank.
select experiment_id, location_id, location_group_id, rank
from {{ ref('locations') }}
where location_type = 'CPU_THREAD' and thread = 0
