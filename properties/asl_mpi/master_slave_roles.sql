{#---
kind: pattern
parent: null
unit: count
requires: [trace]
columns: {callpath_id: BIGINT, location_id: BIGINT, role: VARCHAR, messages: BIGINT}
info: The master-slave roles of point-to-point calls, when the run follows that paradigm.
description: |
  ASL §2.3.1 MPIApplication.Paradigm and FuncCall.Role, derived from the messages:
  the run is MasterSlave when it has at least two slaves (three processes: with one,
  any exchange would qualify) and point-to-point messages, every one of them sent or
  received by the master (the process of rank $p_master_rank). The role
  of a (call path, location) that sends or receives messages: on the master,
  SendMaster / ReceiveMaster; on a slave, SendSlave / ReceiveSlave for messages to /
  from the master. No rows when the run is not MasterSlave. One row per (call path,
  location, role): callpath_id, location_id, role, messages.
diagnosis: Not a problem; the roles slow_slaves and overloaded_master build on.
params:
  p_master_rank: {default: 0, type: BIGINT, doc: "Rank of the master process."}
---#}
with messages as (
    select * from {{ ref('messages') }}
    where send_seq is not null and recv_seq is not null
),

master as (
    select location_id from {{ ref('processes') }} where rank = $p_master_rank
),

paradigm as (
    select (select count(*) from {{ ref('processes') }}) >= 3 and count(*) > 0 and bool_and(
        send_location_id in (select location_id from master)
        or recv_location_id in (select location_id from master)
    ) as is_master_slave
    from messages
),

calls as (
    select send_call_callpath_id as callpath_id, send_location_id as location_id, 'Send' as direction
    from messages
    union all
    select recv_call_callpath_id, recv_location_id, 'Receive'
    from messages
)

select
    callpath_id,
    location_id,
    direction || case when location_id in (select location_id from master) then 'Master' else 'Slave' end as role,
    count(*) as messages
from calls
where (select is_master_slave from paradigm)
group by all
