{#---
kind: property
parent: null
unit: count
requires: [papi]
info: L1 data cache misses of a call path relative to the loads and stores of the run.
description: |
  ASL §3.4.1.4 L1DataCacheMisses = CacheCost<L1DCacheCostFunc>:
  Costs = Summary(r, e).L1DCacheMisses (counter $p_counter over all processes), CONDITION
  Costs > 0, CONFIDENCE 1, SEVERITY Costs / (Summary(RankBasis, e).LoadInstr +
  StoreInstr). value: the misses; details: their distribution over the processes. Without
  loads and stores (a zero denominator) the ratio is not evaluable: SEVERITY and CONDITION NULL.
diagnosis: |
  Improve the locality of this code's memory accesses (blocking/tiling, contiguous
  data layout, fewer indirections), or reduce the data it touches.
params:
  p_counter: {default: PAPI_L1_DCM, counter: true, doc: "The miss counter."}
  p_load_counter: {default: PAPI_LD_INS, counter: true, doc: "LoadInstr: the load-instruction counter."}
  p_store_counter: {default: PAPI_SR_INS, counter: true, doc: "StoreInstr: the store-instruction counter."}
---#}
{% import 'templates/asl.sql' as asl with context %}
{{ asl.cache_cost() }}
