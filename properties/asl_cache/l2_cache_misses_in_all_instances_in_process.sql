{#---
like: l1d_cache_misses_in_all_instances_in_process
parent: l2_cache_misses_per_instance
info: Every instance of a call path on a process has many L2 cache misses.
description: ASL §3.4.1.19 L2CacheMissesInAllInstancesInProcess = AllInstancesInProcess<L2CacheMissesPerInstance>, as l1d_cache_misses_in_all_instances_in_process.
---#}
{% import 'templates/asl.sql' as asl with context %}
{{ asl.all_instances_in_process(ref('l2_cache_miss_instances')) }}
