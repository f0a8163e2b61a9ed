{#---
kind: property
parent: comm_cost
unit: s
requires: [trace]
info: The master waits for results from its slaves.
description: |
  ASL §3.4.1.13 SlowSlaves(FuncCall r): IdleTime = Summary(r, e).IdleTime (idle_time).
  CONDITION a.Paradigm == MasterSlave AND r.Role == ReceiveMaster (master_slave_roles;
  the master is rank $p_master_rank) AND IdleTime > 0, CONFIDENCE 1,
  SEVERITY IdleTime / Duration(RankBasis, e). Rows over all processes for every
  receiving call path of the master (0 where it never waits), per process where it waits.
diagnosis: |
  The master idles while the slaves compute: give the slaves smaller tasks, or let
  the master work on a task itself while it waits.
params:
  p_master_rank: {default: 0, type: BIGINT, doc: "Rank of the master process."}
---#}
{% import 'templates/asl.sql' as asl with context %}
{%- set receives = '(select * from ' ~ ref('master_slave_roles') ~ " where role = 'ReceiveMaster')" -%}
{%- set waits = '(select i.* from ' ~ ref('idle_time') ~ ' as i join ' ~ receives
                 ~ ' as r using (callpath_id, location_id))' -%}
{{ asl.sum_matches(waits, 'idle_s', contexts=receives) }}
