{#---
like: l1d_cache_misses_in_some_not_all_instances
parent: l2_cache_misses_per_instance
info: Some but not all instances of a call path on a process have many L2 cache misses.
description: ASL §3.4.1.20 L2CacheMissesInSomeNotAllInstances = SomeNotAllInstances<L2CacheMissesPerInstance>, as l1d_cache_misses_in_some_not_all_instances.
---#}
{% import 'templates/asl.sql' as asl with context %}
{{ asl.some_not_all_instances(ref('l2_cache_miss_instances')) }}
