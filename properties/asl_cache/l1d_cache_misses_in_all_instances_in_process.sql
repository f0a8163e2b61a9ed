{#---
kind: property
parent: l1d_cache_misses_per_instance
unit: count
requires: [trace, papi]
info: Every instance of a call path on a process has many L1 data cache misses.
description: |
  ASL §3.4.1.19 L1DCacheMissesInAllInstancesInProcess = AllInstancesInProcess<L1DCacheMissesPerInstance>:
  CONDITION every instance of the call path on the process satisfies the per-instance
  condition with severity > $p_instance_severity, CONFIDENCE 1, SEVERITY the max
  per-instance severity; value: the misses of the most severe instance.
diagnosis: |
  Improve the locality of this code's memory accesses (blocking/tiling, contiguous
  data layout, fewer indirections), or reduce the data it touches.
params:
  p_instance_severity: {default: 0.25, type: DOUBLE, doc: "Severity an instance must exceed (ASL: 0.25)."}
---#}
{% import 'templates/asl.sql' as asl with context %}
{{ asl.all_instances_in_process(ref('l1d_cache_miss_instances')) }}
