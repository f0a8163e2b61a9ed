{#---
like: l1d_cache_misses_in_all_instances_in_all_processes
parent: l1i_cache_misses_in_all_instances_in_process
info: Every instance of a call path on every process has many L1 instruction cache misses.
description: ASL §3.4.1.19 L1ICacheMissesInAllInstancesInAllProcesses = OnAllProcesses<L1ICacheMissesInAllInstancesInProcess>, as l1d_cache_misses_in_all_instances_in_all_processes.
---#}
{% import 'templates/asl.sql' as asl with context %}
{{ asl.on_all_processes(ref('l1i_cache_misses_in_all_instances_in_process')) }}
