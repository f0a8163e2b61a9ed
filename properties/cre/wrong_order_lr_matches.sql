{#---
kind: pattern
parent: late_receiver_matches
unit: s
requires: [trace]
info: Late Receiver matches whose message overtook an older one from the same sender.
description: |
  CRE report §8, pattern WrongOrderLr(r): the matches of LateReceiver(r) that are also
  matches of WrongOrder(r). Refines late_receiver_matches by that filter.
diagnosis: See wrong_order_lr.
params:
  p_region: {default: null, type: VARCHAR, doc: "Focus region r of the pattern."}
---#}
with late_receiver_matches as (
    select * from {{ ref('late_receiver_matches') }}
),

wrong_order_matches as (
    select location_id as recv_location_id, recv_seq from {{ ref('wrong_order_matches') }}
)

select *
from late_receiver_matches
semi join wrong_order_matches using (recv_location_id, recv_seq)
