{#---
like: l1_data_cache_misses
kind: pattern
parent: l1_data_cache_misses
requires: [trace, papi]
columns: {callpath_id: BIGINT, location_id: BIGINT, enter_seq: BIGINT, enter_s: DOUBLE,
  value: DOUBLE, instructions: DOUBLE, condition: BOOLEAN, severity: DOUBLE}
info: L1 data cache misses of every region instance, relative to its own loads and stores.
description: |
  ASL §3.4.1.18 L1DCacheMissesPerInstance = CacheCostPerInstance<L1DCacheCostInstFunc> for every
  Exit re: costs = re.L1DCacheMisses (counter $p_counter), CONDITION costs > 0, SEVERITY
  costs / (re.LoadInstr + re.StoreInstr). One row per instance with counter records:
  callpath_id, location_id, enter_seq, enter_s, value, instructions, condition, severity
  (both NULL, not evaluable, for an instance without loads and stores).
---#}
{% import 'templates/asl.sql' as asl with context %}
{{ asl.cache_cost_per_instance() }}
