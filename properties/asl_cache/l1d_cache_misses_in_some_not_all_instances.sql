{#---
kind: property
parent: l1d_cache_misses_per_instance
unit: count
requires: [trace, papi]
info: Some but not all instances of a call path on a process have many L1 data cache misses.
description: |
  ASL §3.4.1.20 L1DCacheMissesInSomeNotAllInstances = SomeNotAllInstances<L1DCacheMissesPerInstance>:
  CONDITION some, not all, instances of the call path on the process satisfy the
  per-instance condition with severity > $p_instance_severity, CONFIDENCE 1,
  SEVERITY the max per-instance severity; value: the misses of the most severe instance.
diagnosis: |
  Only some executions miss the cache: compare their inputs or what ran before
  them (a cold cache after another phase, data that grew).
params:
  p_instance_severity: {default: 0.25, type: DOUBLE, doc: "Severity an instance must exceed (ASL: 0.25)."}
---#}
{% import 'templates/asl.sql' as asl with context %}
{{ asl.some_not_all_instances(ref('l1d_cache_miss_instances')) }}
