-- Point-to-point events that found no partner under FIFO matching.
select
    'unmatched_messages' as "check",
    case when recv_seq is null then send_location_id else recv_location_id end as location_id,
    count(*) as count,
    case when recv_seq is null then 'send without matching receive'
         else 'receive without matching send' end as detail
from {{ ref('messages') }}
where send_seq is null or recv_seq is null
group by all
