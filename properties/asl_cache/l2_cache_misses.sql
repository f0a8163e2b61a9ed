{#---
like: l1_data_cache_misses
info: L2 cache misses of a call path relative to the loads and stores of the run.
description: ASL §3.4.1.4 L2CacheMisses = CacheCost<L2CacheCostFunc>, as l1_data_cache_misses with counter $p_counter.
params:
  p_counter: {default: PAPI_L2_TCM, counter: true, doc: "The miss counter."}
---#}
{% import 'templates/asl.sql' as asl with context %}
{{ asl.cache_cost() }}
