{#---
like: l1d_cache_misses_per_instance
parent: l1_inst_cache_misses
info: The region instance with the most L1 instruction cache misses per load and store, per call path and process.
description: ASL §3.4.1.18 L1ICacheMissesPerInstance over l1i_cache_miss_instances, as l1d_cache_misses_per_instance.
---#}
{% import 'templates/asl.sql' as asl with context %}
{{ asl.most_severe_instance(ref('l1i_cache_miss_instances')) }}
