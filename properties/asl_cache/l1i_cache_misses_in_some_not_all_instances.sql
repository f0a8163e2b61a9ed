{#---
like: l1d_cache_misses_in_some_not_all_instances
parent: l1i_cache_misses_per_instance
info: Some but not all instances of a call path on a process have many L1 instruction cache misses.
description: ASL §3.4.1.20 L1ICacheMissesInSomeNotAllInstances = SomeNotAllInstances<L1ICacheMissesPerInstance>, as l1d_cache_misses_in_some_not_all_instances.
---#}
{% import 'templates/asl.sql' as asl with context %}
{{ asl.some_not_all_instances(ref('l1i_cache_miss_instances')) }}
