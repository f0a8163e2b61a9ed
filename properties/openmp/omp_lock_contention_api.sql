{#---
like: omp_lock_contention_critical
parent: omp_lock_api
info: Time lost waiting for an OpenMP lock (omp_set_lock) that another thread holds (Scalasca's omp_lock_contention_api).
description: Scalasca, omp_lock_contention_api, as omp_lock_contention_critical for the lock API calls.
params:
  p_lock_class: {default: lock_api, type: VARCHAR, doc: "region_classes.omp_class of the acquiring call."}
---#}
{% import 'templates/asl.sql' as asl with context %}
{{ asl.sum_matches('(select * from ' ~ ref('omp_lock_waits') ~ ' where omp_class = $p_lock_class and wait_s > 0)',
                   'wait_s') }}
