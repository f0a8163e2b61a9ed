{#---
kind: property
parent: comm_cost
unit: s
requires: [trace]
info: The slaves wait for the master to hand out tasks or take results.
description: |
  ASL §3.4.1.14 OverloadedMaster(FuncCall r): IdleTime = Summary(r, e).IdleTime /
  (e.NrProcessors - 1), the idle time (idle_time) of the call path summed over the
  slaves where it has the role ReceiveSlave or SendSlave (master_slave_roles; the
  master is rank $p_master_rank), per slave on average. CONDITION a.Paradigm ==
  MasterSlave AND that role AND IdleTime > 0, CONFIDENCE 1,
  SEVERITY IdleTime / Duration(RankBasis, e). A row for every call path with a slave
  role (0 where no slave waits there); details: the idle time per slave.
diagnosis: |
  The master is the bottleneck: distribute tasks in larger batches, use several
  masters, or let slaves fetch work from each other.
params:
  p_master_rank: {default: 0, type: BIGINT, doc: "Rank of the master process."}
---#}
{% import 'templates/asl.sql' as asl with context %}
with per_slave as (
    select r.callpath_id, r.location_id, coalesce(sum(i.idle_s), 0) as value
    from (
        select distinct callpath_id, location_id
        from {{ ref('master_slave_roles') }}
        where role in ('ReceiveSlave', 'SendSlave')
    ) as r
    left join {{ ref('idle_time') }} as i using (callpath_id, location_id)
    group by all
),

processes as (
    select count(*) as n from {{ ref('processes') }}
)

{{ asl.sum_over_processes('per_slave cross join processes cross join ' ~ ref('rank_basis') ~ ' as rank_basis',
                          'rank_basis.basis_s', per='any_value(processes.n) - 1') }}
