{#- CRE pattern templates (CRE report §7.1.4, §8.3). Import with context:
        {% import 'templates/cre.sql' as cre with context %} -#}

{#- PATTERN TEMPLATE LatePartner<rel_op>: the matches of receive_matches (ROOT a
    Receive, SendMsg = sendptr(ROOT), EnterRecv/EnterSend their enterptr) whose
    calls are MPI_Recv and MPI_Send and whose Enter times compare as
    EnterSend.time rel_op EnterRecv.time: LateSender = LatePartner<'>'> (the
    send starts after the receive), LateReceiver = LatePartner<'<'>. -#}
{% macro late_partner(rel_op) -%}
select *
from {{ ref('receive_matches') }}
where recv_call = 'MPI_Recv'
    and send_call = 'MPI_Send'
    and send_call_enter_time {{ rel_op }} recv_call_enter_time
{%- endmacro %}
