{#---
like: l1d_cache_miss_instances
parent: l2_cache_misses
columns: {callpath_id: BIGINT, location_id: BIGINT, enter_seq: BIGINT, enter_s: DOUBLE,
  value: DOUBLE, instructions: DOUBLE, condition: BOOLEAN, severity: DOUBLE}
info: L2 cache misses of every region instance, relative to its own loads and stores.
description: ASL §3.4.1.18 L2CacheMissesPerInstance = CacheCostPerInstance<L2CacheCostInstFunc>, as l1d_cache_miss_instances with counter $p_counter.
params:
  p_counter: {default: PAPI_L2_TCM, counter: true, doc: "The miss counter."}
---#}
{% import 'templates/asl.sql' as asl with context %}
{{ asl.cache_cost_per_instance() }}
