{#---
kind: pattern
parent: late_sender_matches
unit: s
requires: [trace]
info: Late Sender matches whose message overtook an older one from the same sender.
description: |
  CRE report §8, pattern WrongOrderLs(r): the matches of LateSender(r) that are also
  matches of WrongOrder(r) (an older message from the same sender still in the
  message queue at the receive). Refines late_sender_matches by that filter.
diagnosis: See wrong_order_ls.
params:
  p_region: {default: null, type: VARCHAR, doc: "Focus region r of the pattern."}
---#}
with late_sender_matches as (
    select * from {{ ref('late_sender_matches') }}
),

wrong_order_matches as (
    select location_id, recv_seq from {{ ref('wrong_order_matches') }}
)

select *
from late_sender_matches
semi join wrong_order_matches using (location_id, recv_seq)
