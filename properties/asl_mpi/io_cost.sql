{#---
kind: property
parent: total_cost
unit: s
info: Time a call path spends in MPI file I/O, over all processes.
description: |
  ASL §3.4.1.3 IoCost = Cost<IoCostFunc>, IoCostFunc(r, e) = Summary(r, e).IoTime.
  CONDITION cost > 0, CONFIDENCE 1, SEVERITY cost / Duration(RankBasis, e).
diagnosis: Use collective or non-blocking MPI-IO, fewer and larger requests, or fewer writers.
---#}
{% import 'templates/asl.sql' as asl with context %}
{{ asl.cost('io_s') }}
