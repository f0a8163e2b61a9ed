{#---
kind: property
parent: l1_data_cache_misses
unit: count
requires: [trace, papi]
info: The region instance with the most L1 data cache misses per load and store, per call path and process.
description: |
  ASL §3.4.1.18 L1DCacheMissesPerInstance, a property of each instance (Exit re), reported per
  (call path, process) by its most severe instance of l1d_cache_miss_instances:
  CONDITION some instance has misses, SEVERITY its misses / (LoadInstr + StoreInstr),
  value its misses; details: instances, how many have misses, when the worst began.
diagnosis: |
  Improve the locality of this code's memory accesses (blocking/tiling, contiguous
  data layout, fewer indirections), or reduce the data it touches.
---#}
{% import 'templates/asl.sql' as asl with context %}
{{ asl.most_severe_instance(ref('l1d_cache_miss_instances')) }}
