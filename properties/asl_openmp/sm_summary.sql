{#---
kind: pattern
parent: null
unit: s
columns: {callpath_id: BIGINT, kind: VARCHAR, location_id: BIGINT, instance_no: BIGINT,
  nr_executions: BIGINT, nr_threads: BIGINT, duration: DOUBLE, non_parallelized_code: DOUBLE,
  nr_remote_accesses: DOUBLE, scheduling: DOUBLE, additional_calc: DOUBLE,
  cross_thread_dep_ctrl: DOUBLE, cross_thread_dep_wait: DOUBLE, region_wait: DOUBLE,
  region_ctrl: DOUBLE, nr_cache_misses: DOUBLE}
info: The ASL OpenMP region summaries (SmRegionSummary) of the experiment, from summary input or from the trace.
description: |
  ASL §2.3.3 SmRegionSummary per call path: the rows of sm_summary_input (a compiler's or
  runtime's summary input, docs/summary-input.md) and, for a trace, omp_region_summary
  (what the trace measures). Columns of sm_summary_input: callpath_id, kind, location_id
  (thread rows), instance_no (instance rows), nr_executions, nr_threads, and the SmSums
  fields (seconds; nr_* counts).
diagnosis: Not a problem by itself; the openmp_* properties read it.
---#}
select
    callpath_id, kind, location_id, instance_no, nr_executions, nr_threads, duration, non_parallelized_code,
    nr_remote_accesses, scheduling, additional_calc, cross_thread_dep_ctrl, cross_thread_dep_wait, region_wait,
    region_ctrl, nr_cache_misses
from {{ ref('sm_summary_input') }}
{%- if has('openmp') %}

union all

-- what a trace does not measure is NULL
select
    callpath_id, kind, location_id, instance_no, nr_executions, nr_threads, duration, non_parallelized_code,
    null::double as nr_remote_accesses, null::double as scheduling, null::double as additional_calc,
    cross_thread_dep_ctrl, cross_thread_dep_wait, region_wait, region_ctrl, null::double as nr_cache_misses
from {{ ref('omp_region_summary') }}
{%- endif %}
