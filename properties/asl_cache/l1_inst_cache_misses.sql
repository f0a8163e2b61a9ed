{#---
like: l1_data_cache_misses
info: L1 instruction cache misses of a call path relative to the loads and stores of the run.
description: ASL §3.4.1.4 L1InstCacheMisses = CacheCost<L1ICacheCostFunc>, as l1_data_cache_misses with counter $p_counter.
params:
  p_counter: {default: PAPI_L1_ICM, counter: true, doc: "The miss counter."}
---#}
{% import 'templates/asl.sql' as asl with context %}
{{ asl.cache_cost() }}
