-- Classification of every region, from its role, paradigm and name; the
-- ASL MPI data model (report §2.3.1): MPISyncFunc, MPICommFunc
-- (MPIp2pFunc with type/mode/semantics, MPICollFunc with type), MPIioFunc.
--
-- mpi_class: 'p2p' (point-to-point calls and the Test/Wait family),
-- 'collective' (all collectives but barriers), 'sync' (MPI_Barrier,
-- MPI_Ibarrier), 'io' (MPI_File_*), 'rma' (one-sided), 'management'
-- (every other MPI function); NULL for non-MPI regions.
-- is_comm/is_sync/is_io: the ASL CommTime/SyncTime/IoTime categories; is_io also
-- holds for file I/O outside MPI (POSIX / ISO C I/O regions, by their role).
-- p2p_type: 'send', 'recv', 'sendrecv' or 'completion' (Wait/Test family);
-- p2p_mode: 'standard', 'buffered', 'synchronous', 'ready';
-- is_blocking: false for MPI_I* and MPI_Test*.
-- coll_type: 'barrier', 'one2all', 'all2one', 'all2all', 'scan'.
-- omp_class (OpenMP regions, Score-P's classification): 'parallel', 'ebarrier'
-- (explicit barrier), 'ibarrier' (implicit barrier), 'critical' (critical and
-- atomic), 'lock_api' (omp_*_lock), 'ordered', 'taskwait', 'flush', 'serial'
-- (the body of single and master constructs, run by one thread), 'other' (loops,
-- sections, ...: computation); NULL for non-OpenMP regions.
with r as (
    select * from {{ ref('regions') }}
),

classified as (
    select
        experiment_id,
        region_id,
        name,
        role,
        paradigm,
        case
            when paradigm <> 'MPI' then null
            when role = 'BARRIER' or name in ('MPI_Barrier', 'MPI_Ibarrier') then 'sync'
            when role like 'COLL_%' then 'collective'
            when role in ('FILE_IO', 'FILE_IO_METADATA') or name like 'MPI\_File\_%' escape '\'
                then 'io'
            when role in ('RMA', 'ATOMIC') or name like 'MPI\_Win\_%' escape '\' then 'rma'
            when role = 'POINT2POINT'
                or regexp_matches(
                    name,
                    '^MPI_(Send|[BSR]send|I[bsr]?send|Recv|Irecv|Mrecv|Imrecv|Sendrecv(_replace)?|(Wait|Test)(all|any|some)?|Probe|Iprobe|Mprobe|Improbe|Start(all)?|Request_free|Cancel|(Send|[BSR]send|Recv)_init)$'  -- noqa: LT05
                )
                then 'p2p'
            else 'management'
        end as mpi_class,
        case
            when paradigm <> 'MPI' then null
            when regexp_matches(name, '^MPI_Sendrecv') then 'sendrecv'
            when regexp_matches(name, '^MPI_(Send|[BSR]send|I[bsr]?send)$') then 'send'
            when regexp_matches(name, '^MPI_(Recv|Irecv|Mrecv|Imrecv)$') then 'recv'
            when regexp_matches(name, '^MPI_(Wait|Test)(all|any|some)?$') then 'completion'
        end as p2p_type,
        case
            when paradigm <> 'MPI' then null
            when regexp_matches(name, '^MPI_I?[Bb]send') then 'buffered'
            when regexp_matches(name, '^MPI_I?[Ss]send') then 'synchronous'
            when regexp_matches(name, '^MPI_I?[Rr]send') then 'ready'
            when regexp_matches(name, '^MPI_I?(send|recv|Send|Recv|Sendrecv)') then 'standard'
        end as p2p_mode,
        case
            when paradigm <> 'MPI' then null
            else not (
                regexp_matches(name, '^MPI_I[a-z]')
                    and not regexp_matches(name, '^MPI_(Init|Intercomm|Is_thread|Info)')
                or name like 'MPI\_Test%' escape '\'
            )
        end as is_blocking,
        case
            when paradigm <> 'MPI' then null
            when role = 'BARRIER' then 'barrier'
            when role = 'COLL_ONE2ALL' then 'one2all'
            when role = 'COLL_ALL2ONE' then 'all2one'
            when role = 'COLL_ALL2ALL' then 'all2all'
            when role = 'COLL_OTHER' then 'scan'
        end as coll_type,
        case
            when paradigm <> 'OPENMP' then null
            when role = 'PARALLEL' then 'parallel'
            when role = 'BARRIER' then 'ebarrier'
            when role = 'IMPLICIT_BARRIER' then 'ibarrier'
            when role in ('CRITICAL', 'ATOMIC') then 'critical'
            when regexp_matches(name, '^omp_(destroy|init|set|test|unset)(_nest)?_lock$') then 'lock_api'
            when role = 'ORDERED' then 'ordered'
            when role = 'TASK_WAIT' then 'taskwait'
            when role = 'FLUSH' then 'flush'
            when role in ('SINGLE_SBLOCK', 'MASTER') then 'serial'
            else 'other'
        end as omp_class
    from r
)

select
    *,
    coalesce(mpi_class in ('p2p', 'collective', 'rma'), false) as is_comm,
    coalesce(mpi_class = 'sync', false) as is_sync,
    coalesce(mpi_class = 'io' or role in ('FILE_IO', 'FILE_IO_METADATA'), false) as is_io
from classified
