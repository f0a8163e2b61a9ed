{#---
like: omp_ibarrier_wait
parent: omp_ebarrier
info: Time threads wait in explicit OpenMP barriers for the last thread of the team (Scalasca's omp_ebarrier_wait).
description: Scalasca, omp_ebarrier_wait, as omp_ibarrier_wait for the explicit barriers (!$omp barrier).
params:
  p_barrier_class: {default: ebarrier, type: VARCHAR, doc: "region_classes.omp_class of the barriers."}
---#}
{% import 'templates/asl.sql' as asl with context %}
{{ asl.sum_matches('(select * from ' ~ ref('omp_barrier_waits') ~ ' where omp_class = $p_barrier_class and wait_s > 0)',
                   'wait_s') }}
