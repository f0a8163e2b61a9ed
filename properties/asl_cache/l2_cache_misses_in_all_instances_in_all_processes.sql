{#---
like: l1d_cache_misses_in_all_instances_in_all_processes
parent: l2_cache_misses_in_all_instances_in_process
info: Every instance of a call path on every process has many L2 cache misses.
description: ASL §3.4.1.19 L2CacheMissesInAllInstancesInAllProcesses = OnAllProcesses<L2CacheMissesInAllInstancesInProcess>, as l1d_cache_misses_in_all_instances_in_all_processes.
---#}
{% import 'templates/asl.sql' as asl with context %}
{{ asl.on_all_processes(ref('l2_cache_misses_in_all_instances_in_process')) }}
