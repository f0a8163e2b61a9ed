-- macro: message queue M^{s,d} (CRE report §4.1, Fig. 2 and 14)
-- The messages in transfer from location p_source to location p_destination
-- at tick p_time: sent at or before p_time and not received by then, oldest
-- first.
-- Example: SELECT * FROM message_queue(1, 0, 1, 8862913575348)
message_queue(p_experiment_id, p_source, p_destination, p_time) as table
select *
from {{ ref('messages') }}
where experiment_id = p_experiment_id
    and send_location_id = p_source
    and recv_location_id = p_destination
    and send_time <= p_time
    and (recv_time is null or recv_time > p_time)
order by send_seq
