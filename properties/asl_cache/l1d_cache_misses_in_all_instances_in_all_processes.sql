{#---
kind: property
parent: l1d_cache_misses_in_all_instances_in_process
unit: count
requires: [trace, papi]
info: Every instance of a call path on every process has many L1 data cache misses.
description: |
  ASL §3.4.1.19 L1DCacheMissesInAllInstancesInAllProcesses =
  OnAllProcesses<L1DCacheMissesInAllInstancesInProcess>: CONDITION the property holds with
  confidence 1 on every process, CONFIDENCE 1, SEVERITY the max severity over the
  processes (ASL §3.2; see templates/asl.sql); value: the sum over processes.
diagnosis: |
  Improve the locality of this code's memory accesses (blocking/tiling, contiguous
  data layout, fewer indirections), or reduce the data it touches.
---#}
{% import 'templates/asl.sql' as asl with context %}
{{ asl.on_all_processes(ref('l1d_cache_misses_in_all_instances_in_process')) }}
