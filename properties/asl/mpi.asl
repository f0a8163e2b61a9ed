// The MPI properties of the ASL report (../shared/seeds/asl-knowledge-specification.txt,
// section 3.2 and 3.4.1 / Appendix C), transcribed: `cosydb report DB --asl mpi` compiles
// and evaluates them. TotalCost, CommCost, SyncCost and IoCost restate total_cost,
// comm_cost, sync_cost and io_cost of properties/asl_mpi/, which tests/test_asl.py compares
// them with on every shared trace.
//
// Where the report's text is not valid ASL it is read as noted at the place; the checker
// reports the report's own text (tests/test_asl.py runs it on the report):
//   - CostPerProcess and PropertyOnAllProcesses declare an untyped parameter "RankBasis":
//     read as "Region RankBasis"; CostPerProcess's body lacks its opening '{': added;
//     PropertyOnAllProcesses's property parameter x(Region, Experiment, Process, RankBasis)
//     names the rank basis where its class belongs: Region;
//   - PropertyOnAllProcesses quantifies over e.processors, which no class has: read as
//     e.processes, as its SEVERITY writes (and the report's text calls the property
//     "PropertyPerProcess", a name it never defines);
//   - its instantiation names SynCostPerProcess: read as SyncCostPerProcess;
//   - section 3.2 names the metaproperties IoCost, SyncCost, CommCost, which section
//     3.4.1.3 gives to the Cost instances: here IoCostOnAllProcesses, ... .
// Identifiers are case-insensitive, as the report writes Summary and summary.

// 3.4.1.1 MPI global definitions: cosydb/asl/prelude.asl, which every ASL file sees.

// 3.4.1.2 TotalCost

PROPERTY TEMPLATE Cost <float CostFunc(Region r, Experiment e)>
    (Region r, Experiment e, Region RankBasis){
LET
    Cost = CostFunc(r,e)
IN
    CONDITION:    Cost > 0;
    CONFIDENCE:   1;
    SEVERITY:     Cost/Duration(RankBasis,e);
}

float AllCostFunc(Region r, Experiment e) =
    summary(r,e).CommTime +
    summary(r,e).SyncTime +
    summary(r,e).IoTime;

// Time a call path spends in MPI communication, synchronisation and I/O, over all processes.
PROPERTY Cost<AllCostFunc> TotalCost;

// 3.4.1.3 CommCost, SyncCost, IoCost

float CommCostFunc(Region r, Experiment e)= Summary(r,e).CommTime;
float SyncCostFunc(Region r, Experiment e)= Summary(r,e).SyncTime;
float IoCostFunc(Region r, Experiment e)= Summary(r,e).IoTime;

// Time a call path spends in MPI communication, over all processes.
PROPERTY Cost<CommCostFunc> CommCost;
// Time a call path spends in MPI barriers, over all processes.
PROPERTY Cost<SyncCostFunc> SyncCost;
// Time a call path spends in I/O, over all processes.
PROPERTY Cost<IoCostFunc> IoCost;

// 3.4.1.4 CacheCost. The report's LET defines Costs, its SEVERITY reads Cost: read as Costs;
// its three cost functions have no type: float. The counters are parameters (p_l1d_counter,
// p_l1i_counter, p_l2_counter, p_load_counter, p_store_counter; supplied_data.yaml).

PROPERTY TEMPLATE CacheCost <float CostFunc(Region, Experiment)>
    (Region r, Experiment e, Region RankBasis) {
LET
    float Costs=CostFunc(r,e);
IN
    CONDITION: Costs>0;
    CONFIDENCE: 1;
    SEVERITY: Costs/(Summary(RankBasis,e).LoadInstr
        + Summary(RankBasis,e).StoreInstr) ;
}

float L1DCacheCostFunc(Region r, Experiment e)= Summary(r,e).L1DCacheMisses;
float L1ICacheCostFunc(Region r, Experiment e)= Summary(r,e).L1ICacheMisses;
float L2CacheCostFunc(Region r, Experiment e)= Summary(r,e).L2CacheMisses;

// L1 data cache misses of a call path relative to the loads and stores of the run.
PROPERTY CacheCost<L1DCacheCostFunc> L1DataCacheMisses;
// L1 instruction cache misses of a call path relative to the loads and stores of the run.
PROPERTY CacheCost<L1ICacheCostFunc> L1InstCacheMisses;
// L2 cache misses of a call path relative to the loads and stores of the run.
PROPERTY CacheCost<L2CacheCostFunc> L2CacheMisses;

// 3.4.1.18-20 Cache misses per instance. A property of an Exit re (a region instance) has
// a row per instance (cosydb: the pattern <name>Instances) and is reported per call path and
// process by the most severe instance. Read as noted:
//   - CacheCostPerInstance's SEVERITY reads cost where its LET defines costs (costs); its
//     three cost functions have no type (float);
//   - AllInstancesInProcess declares its property parameter x(RegionExit), a class no
//     appendix defines, and applies it as x(re), where the property takes the rank basis
//     too: read as x(Exit, Region) and x(re, RankBasis);
//   - its LET ranges over e.Trace, every event, whose
//     Process and Region it reads: the Exits of r on p (typeof(re) == Exit added,
//     re.process_id for re.Process); its max(severity(...)) has no WHERE: over AllRe;
//   - SomeNotAllInstances declares x(Region, Experiment, Process, Region> and no Process p,
//     which its LET reads, and closes its CONDITION with one ')' too many: read as
//     AllInstancesInProcess is; its instances name it SomeNotAllInstancesOfProcess, which is
//     not defined: SomeNotAllInstances.
// An instance without counter records has no value for them: it is an instance where the
// property does not hold (the catalog's entries leave such instances out; Score-P records
// the counters at every region event, but at the program's root).

PROPERTY TEMPLATE CacheCostPerInstance <float CostFunc(Exit)>
    (Exit re, Region RankBasis) {
LET
    float costs=CostFunc(re);
IN
    CONDITION: costs>0;
    CONFIDENCE: 1;
    SEVERITY: costs/(re.LoadInstr + re.StoreInstr) ;
}

float L1DCacheCostInstFunc(Exit re)= re.L1DCacheMisses;
float L1ICacheCostInstFunc(Exit re)= re.L1ICacheMisses;
float L2CacheCostInstFunc(Exit re) = re.L2CacheMisses;

// The region instance with the most L1 data cache misses per load and store.
PROPERTY CacheCostPerInstance<L1DCacheCostInstFunc> L1DCacheMissesPerInstance;
// The region instance with the most L1 instruction cache misses per load and store.
PROPERTY CacheCostPerInstance<L1ICacheCostInstFunc> L1ICacheMissesPerInstance;
// The region instance with the most L2 cache misses per load and store.
PROPERTY CacheCostPerInstance<L2CacheCostInstFunc> L2CacheMissesPerInstance;

PROPERTY TEMPLATE AllInstancesInProcess
  <PROPERTY x(Exit, Region)>(Region r, Experiment e,
                          Process p, Region RankBasis) {
LET
  Setof Exit AllRe = {re IN e.Trace WITH typeof(re) == Exit AND re.process_id==p
                      AND re.Region==r}
IN
  CONDITION: FORALL re IN AllRe
              SUCH THAT
                condition(x(re, RankBasis))
              AND
                severity(x(re, RankBasis))>0.25;
  CONFIDENCE: 1;
  SEVERITY: max(severity(x(re, RankBasis)) WHERE re IN AllRe);
}

// Every instance of a call path on a process has many L1 data cache misses.
PROPERTY AllInstancesInProcess <L1DCacheMissesPerInstance>
  L1DCacheMissesInAllInstancesInProcess;
// Every instance of a call path on a process has many L1 instruction cache misses.
PROPERTY AllInstancesInProcess <L1ICacheMissesPerInstance>
  L1ICacheMissesInAllInstancesInProcess;
// Every instance of a call path on a process has many L2 cache misses.
PROPERTY AllInstancesInProcess <L2CacheMissesPerInstance>
  L2CacheMissesInAllInstancesInProcess;

PROPERTY TEMPLATE SomeNotAllInstances< PROPERTY x(Exit, Region)>(Region r, Experiment e,
                          Process p, Region RankBasis) {
LET
  Setof Exit AllRe = {re IN e.Trace WITH typeof(re) == Exit AND re.process_id==p
                      AND re.Region==r};
IN
  CONDITION: (EXISTS re IN AllRe
              SUCH THAT
                condition(x(re, RankBasis))
              AND
                severity(x(re, RankBasis))>0.25)
  AND
  (NOT FORALL re IN AllRe
   SUCH THAT
     condition(x(re, RankBasis))
   AND
     severity(x(re, RankBasis))>0.25);
CONFIDENCE: 1;
SEVERITY: max(severity(x(re, RankBasis)) WHERE re IN AllRe);
}

// Some but not all instances of a call path on a process have many L1 data cache misses.
PROPERTY SomeNotAllInstances <L1DCacheMissesPerInstance>
  L1DCacheMissesInSomeNotAllInstances;
// Some but not all instances of a call path on a process have many L1 instruction cache misses.
PROPERTY SomeNotAllInstances <L1ICacheMissesPerInstance>
  L1ICacheMissesInSomeNotAllInstances;
// Some but not all instances of a call path on a process have many L2 cache misses.
PROPERTY SomeNotAllInstances <L2CacheMissesPerInstance>
  L2CacheMissesInSomeNotAllInstances;

// 3.4.1.5 DominatingCommFunction

// The MPI communication function with the largest time over all its calls and processes.
PROPERTY DominatingCommFunction(MPIFunction r, Experiment e, Region RankBasis){
LET
  setof MPISummary CommSummaries=
    {x IN e.profile
     WITH
       x.Proc==ALLPROCESSES
     AND
       typeof(x.region)==MPICommFunc};
  float MaxCommTime = MAX(sum.Incl WHERE sum IN CommSummaries);
IN
  CONDITION: typeof(r)==MPICommFunc AND Duration(r,e)==MaxCommTime;
  CONFIDENCE: 1;
  SEVERITY: MaxCommTime/Duration(RankBasis,e);
}

// 3.4.1.6 DominatingCommCall

// The call of an MPI communication function with the largest time over all processes.
PROPERTY DominatingCommCall(FuncCall r, Experiment e, Region RankBasis){
LET
  setof MPISummary CommSummaries=
    {x IN e.profile
     WITH
       x.Proc==ALLPROCESSES AND typeof(x.region)==FuncCall
     AND
       typeof(x.region.CalledFunc)==MPICommFunc};
  float MaxCommTime = MAX(sum.Incl WHERE sum IN CommSummaries);
IN
  CONDITION: typeof(r.CalledFunc)==MPICommFunc AND
             Duration(r,e)==MaxCommTime;
  CONFIDENCE: 1;
  SEVERITY: MaxCommTime/Duration(RankBasis,e);
}

// 3.4.1.7 FrequentCommunication

// An MPI communication call with little time per execution.
PROPERTY FrequentCommunication (FuncCall r, Experiment e, Region RankBasis){
LET
  float Cost = Duration(r,e);
IN
  CONDITION: typeof(r.CalledFunc)==MPICommFunc AND Cost>0 AND
             Cost/Summary(r,e).NrExecutions<SmallMessagesThreshold;
  CONFIDENCE: 1;
  SEVERITY:   Cost/Duration(RankBasis,e);
}

// 3.4.1.8 BigMessages

// An MPI communication call that moves many bytes per execution.
PROPERTY BigMessages (FuncCall r, Experiment e, Region RankBasis){
LET
  float Cost = Summary(r,e).CommTime;
  int AvgLength = summary(r,e).MessageLength/
                 summary(r,e).NrExecutions;
IN
  CONDITION: typeof(r.CalledFunc)==MPICommFunc AND Cost>0 AND
             AvgLength>BigMessagesThreshold;
  CONFIDENCE: 1;
  SEVERITY:   Cost/Duration(RankBasis,e);
}

// 3.4.1.9 LateSender. The report compares r.CalledFunc.Name with MPI_Receive, unquoted, a
// function MPI does not have: read as a point-to-point function whose type (MPITypes.CommType)
// is Recv or SendRecv (MPI_Recv, MPI_Mrecv, MPI_Sendrecv, ...).

// A receive call that waits for its sender (over all processes).
PROPERTY LateSender(FuncCall r, Experiment e, Region RankBasis){
LET
  float IdleTime = summary(r,e).IdleTime;
IN
  CONDITION: typeof(r.CalledFunc)==MPIp2pFunc
             AND (r.CalledFunc.type == Recv OR r.CalledFunc.type == SendRecv) AND IdleTime>0;
  CONFIDENCE: 1;
  SEVERITY: IdleTime/Duration(RankBasis,e);
}

// 3.4.1.10 LateReceiver. The report writes r.CalledFunc.Name == MPI_SEND (unquoted: read as
// the type Send), r.Semantics == Blocking (a FuncCall has no Semantics: read as
// r.CalledFunc.semantics) and idle_time > 0 (read as the LET's IdleTime).

// A blocking send call that waits for its receiver (over all processes).
PROPERTY LateReceiver(FuncCall r, Experiment e, Region RankBasis){
LET
  float IdleTime = Summary(r,e).IdleTime;
IN
  CONDITION: typeof(r.CalledFunc)==MPIp2pFunc
             AND r.CalledFunc.type == Send
             AND r.CalledFunc.semantics == Blocking AND IdleTime>0;
  CONFIDENCE: 1;
  SEVERITY: IdleTime/Duration(RankBasis,e);
}

// 3.4.1.11 UnevenMpDistribution

// An MPI communication call whose time differs much between the processes.
PROPERTY UnevenMpDistribution(FuncCall r, Experiment e,
                             Region RankBasis)
{
LET
  float deviation=stdev(s.Incl WHERE s IN ProcessProfiles(r,e));
IN
  CONDITION: typeof(r.CalledFunc)==MPICommFunc AND
             deviation > uneven_threshold * summary(r,e).Incl/
             e.nr_processors;
  CONFIDENCE: 1;
  SEVERITY: summary(r,e).Incl/Duration(RankBasis,e);
}

// 3.4.1.12 LoadImbalanceAtBarrier
// The report writes the conditions "(COND1) r.CalledFunc.Name==MPI_Barrier AND max_wait>0
// || (COND2) ...": "||" read as OR, max_wait as MaxWait, and the unquoted MPI_Barrier as
// the class of barrier functions, MPISyncFunc (MPI_Barrier and MPI_Ibarrier).

// An MPI barrier that processes reach at different times.
PROPERTY LoadImbalanceAtBarrier(FuncCall r, Experiment e, Region RankBasis){
LET
  float MaxTime=max( x.Incl WHERE x IN ProcessProfiles(r,e) );
  float MinTime=min( x.Incl WHERE x IN ProcessProfiles(r,e) );
  float MaxWait=MaxTime - MinTime;
IN
  CONDITION: (COND1) typeof(r.CalledFunc)==MPISyncFunc AND
             MaxWait>0
             OR (COND2) typeof(r.CalledFunc)==MPISyncFunc AND
             summary(r,e).IdleTime>0;
  CONFIDENCE: 1;
  SEVERITY: MAX((COND1)->MaxWait/(Duration(RankBasis,e)/e.nr_processors),
                (COND2)->Summary(r,e).IdleTime/Duration(RankBasis,e));
}

// 3.4.1.13 SlowSlaves and 3.4.1.14 OverloadedMaster. The report gives a FuncCall one role
// and reads the call's summary over all processes. In a trace one call path can be the
// master's receive of results and a slave's receive of tasks (a receive in code that both
// run): a call path plays a role on a process, and r.Role == R holds where r plays R on some
// process (FuncCall.role), s.Role == R where the summary's call path plays R on its process
// (MPISummary.Role, cosydb's addition). The IdleTime is that of the processes where r plays
// the role: the master's for SlowSlaves (summary(r,e).IdleTime would add the slaves'
// waits at the same call path), the slaves' per slave for OverloadedMaster. The text names
// the roles ReceiveMaster, ReceiveSlave, SendSlave; Appendix C's ParadigmRole has MasterRecv,
// SlaveRecv, SlaveSend (read as those). SlowSlaves' "SEVERITY: ...," ends with ',' (';'),
// OverloadedMaster divides by e.NrProcessors-1 (the data model's nr_processors).

// The master waits for results from its slaves.
PROPERTY SlowSlaves (FuncCall r, MPIApplication a,
                    Experiment e, Region RankBasis){
LET
  float IdleTime = SUM(s.IdleTime WHERE s IN
                       {s IN e.profile WITH s.region == r AND s.Role == MasterRecv});
IN
  CONDITION: a.Paradigm == MasterSlave AND r.Role == MasterRecv AND
             IdleTime>0;
  CONFIDENCE: 1;
  SEVERITY: IdleTime/Duration(RankBasis,e);
}

// The slaves wait for the master to hand out tasks or take results.
PROPERTY OverloadedMaster(FuncCall r, MPIApplication a,
                          Experiment e, Region RankBasis){
LET
  float IdleTime = SUM(s.IdleTime WHERE s IN
                       {s IN e.profile WITH s.region == r AND
                        (s.Role == SlaveRecv OR s.Role == SlaveSend)})/(e.nr_processors-1);
IN
  CONDITION: (a.Paradigm == MasterSlave AND
             (r.Role == SlaveRecv OR r.Role == SlaveSend)) AND
             IdleTime>0;
  CONFIDENCE: 1;
  SEVERITY: IdleTime/Duration(RankBasis,e);
}

// 3.4.1.15 WrongOrder and MessagesInWrongOrder. Read as noted:
//   - ROOT.Process and SendMsg.Process: Event's process_id (figure 3.10 reads that); e.Region
//     and s.Timestamp as written (names are case-insensitive);
//   - ExitRecv and ExitSend select from every event whose enterptr is the call's Enter (the
//     Receive itself is one): read as the call's Exit (typeof(ev) == Exit added);
//   - the EXPORT cost has no type: float;
//   - a call that completes several messages received in the wrong order (MPI_Waitall) would
//     count its duration once per message: shared among them (Completed), so that the cost
//     is the time the calls took;
//   - the property ranges over every FuncCall, and its matches are receives whose call, on
//     the region stack, is r: typeof(r.CalledFunc)==MPIp2pFunc added, so that its rows are
//     the point-to-point calls (an MPI call calls no other, so r is the receiving call);
//   - PATTERN_MATCHES(WrongOrder(r), e): the experiment's trace.

// The receive x takes a message while an older one from the same sender is still in the
// message queue (the pattern's CONSTRAINT).
boolean ReceivedOutOfOrder(Receive x) =
    EXISTS s IN Mq(x, sendptr(x).process_id, x.process_id)
    SUCH THAT s.Timestamp < sendptr(x).Timestamp;

PATTERN WrongOrder(FuncCall r) {
  ROOTTYPE: Receive;
  INSTANTIATION:
    Send  SendMsg = sendptr(ROOT);
    Enter EnterSend = enterptr(SendMsg);
    Enter EnterRecv = enterptr(ROOT);
    Exit  ExitRecv = UNIQUE({
      ev IN TRACE
      WITH typeof(ev) == Exit AND enterptr(ev) == EnterRecv
    });
    Exit  ExitSend = UNIQUE({
      ev IN TRACE
      WITH typeof(ev) == Exit AND enterptr(ev) == EnterSend
    });
    int Completed = COUNT(x WHERE x IN {
      x IN TRACE
      WITH typeof(x) == Receive AND enterptr(x) == EnterRecv AND ReceivedOutOfOrder(x)
    });

  CONSTRAINT:
    EXISTS e IN Rs(ROOT, ROOT.process_id) SUCH THAT e.Region==r AND
    ReceivedOutOfOrder(ROOT);

  EXPORT:
    float cost = (ExitSend.Timestamp - EnterSend.Timestamp) +
           (ExitRecv.Timestamp - EnterRecv.Timestamp) / Completed;
}

// Time in the send and receive calls of messages received out of send order.
PROPERTY MessagesInWrongOrder(FuncCall r, Experiment e, Region RankBasis){
  LET
    float Cost= SUM(i.cost WHERE i IN
      PATTERN_MATCHES(WrongOrder(r), e));
  IN
    CONDITION: typeof(r.CalledFunc)==MPIp2pFunc AND Cost>0;
    CONFIDENCE: 1;
    SEVERITY: Cost/Duration(RankBasis,e);
}

// 3.2 Property templates and metaproperties

PROPERTY TEMPLATE CostPerProcess <float CostFunc(MPISummary)>
    (Region r, Experiment e, Process p, Region RankBasis) {
LET
    float cost = CostFunc(summary(r,e,p));
IN
    CONDITION:    cost > 0;
    CONFIDENCE:   1;
    SEVERITY:     cost/duration(RankBasis,e);
}

float IoCostPerProcessFunc(MPISummary rs) = rs.IoTime;
float SyncCostPerProcessFunc(MPISummary rs) = rs.SyncTime;
float CommCostPerProcessFunc(MPISummary rs) = rs.CommTime;

// I/O time of a call path on one process.
PROPERTY CostPerProcess <IoCostPerProcessFunc> IoCostPerProcess;
// Barrier time of a call path on one process.
PROPERTY CostPerProcess <SyncCostPerProcessFunc> SyncCostPerProcess;
// Communication time of a call path on one process.
PROPERTY CostPerProcess <CommCostPerProcessFunc> CommCostPerProcess;

PROPERTY TEMPLATE PropertyOnAllProcesses
  <PROPERTY x(Region, Experiment, Process, Region)>
  (Region r, Experiment e, Region RankBasis) {

    CONDITION:  Forall p IN e.processes SUCH THAT
                  condition(x(r,e,p,RankBasis)) AND
                  confidence(x(r,e,p,RankBasis)) ==1;
    CONFIDENCE: 1;
    SEVERITY:   max(severity(x(r,e,p,RankBasis)) WHERE p in e.processes);
}

// A call path does I/O on every process.
PROPERTY PropertyOnAllProcesses <IoCostPerProcess> IoCostOnAllProcesses;
// A call path synchronises on every process.
PROPERTY PropertyOnAllProcesses <SyncCostPerProcess> SyncCostOnAllProcesses;
// A call path communicates on every process.
PROPERTY PropertyOnAllProcesses <CommCostPerProcess> CommCostOnAllProcesses;

// 3.4.1.16 FrequentCommInProcess (the section's heading: FrequentCommInProgress; Appendix C:
// FrequentCommInProcess). The report's text lacks the ',' between "Process p" and "Region
// RankBasis" (added) and divides by Summary(r,e,p).NumPasses, which MPISummary does not
// have: read as NrExecutions, as FrequentCommunication (3.4.1.7) writes it.

// An MPI communication function that one process calls often with little time per call.
PROPERTY FrequentCommInProcess(Function r, Experiment e, Process p, Region RankBasis){
LET
  float cost = Summary(r,e,p).Incl;
IN
  CONDITION:  typeof(r)==MPICommFunc AND cost>0 AND
              cost/Summary(r,e,p).NrExecutions < SmallMessagesThreshold;
  CONFIDENCE: 1;
  SEVERITY:   cost/duration(RankBasis,e,p);
}

// 3.4.1.17 FrequentCommOnAllProcesses and 3.4.1.21 FrequentCommSomeProcesses. The report's
// templates differ from section 3.2's PropertyOnAllProcesses; read as noted:
//   - "PROPERTY x(Region, Experiment, Process, Region>": the ')' before '>' added;
//   - SEVERITY max(severity(x(r,e,p,RankBasis)))*e.NrProcessors: max has no WHERE and p is
//     bound nowhere; read, as section 3.2 has it, as the max over the processes, here those
//     where x holds (the template's own test). The factor e.NrProcessors (an attribute the
//     data model calls nr_processors) is left out, as in section 3.2: a per-process severity
//     relates to one process's duration, and N times it would rank the property N times
//     above an equal loss over all processes;
//   - SomeNotAllProcesses's second test reads "confidence(x(r,e,p,RankBasis))" without
//     "==1", a number where a condition belongs: "==1" added, as in its first test;
//   - the instances name FrequentCommProcess, which the report never defines: read as
//     FrequentCommInProcess.
// A metaproperty is defined on the contexts its property x has rows for: these range over
// the MPI communication functions, as FrequentCommInProcess does.

PROPERTY TEMPLATE OnAllProcesses< PROPERTY x(Region, Experiment,
Process, Region)>(Region r, Experiment e, Region RankBasis) {

  CONDITION: FORALL p IN e.Processes
             SUCH THAT
               condition(x(r,e,p,RankBasis))
             AND
               confidence(x(r,e,p,RankBasis))==1;
  CONFIDENCE: 1;
  SEVERITY:   max(severity(x(r,e,p,RankBasis)) WHERE p IN
                {q IN e.Processes WITH condition(x(r,e,q,RankBasis)) AND
                                       confidence(x(r,e,q,RankBasis))==1});
}

PROPERTY TEMPLATE SomeNotAllProcesses< PROPERTY x(Region, Experiment,
Process, Region)>(Region r, Experiment e, Region RankBasis) {

    CONDITION: (EXISTS p IN e.Processes
                SUCH THAT
                condition(x(r,e,p,RankBasis))
                AND
                confidence(x(r,e,p,RankBasis))==1)
    AND
    (NOT FORALL p IN e.Processes
     SUCH THAT
     condition(x(r,e,p,RankBasis))
     AND
     confidence(x(r,e,p,RankBasis))==1
    );
    CONFIDENCE: 1;
    SEVERITY: max(severity(x(r,e,p,RankBasis)) WHERE p IN
                {q IN e.Processes WITH condition(x(r,e,q,RankBasis)) AND
                                       confidence(x(r,e,q,RankBasis))==1});
}

// An MPI communication function called often with little time per call on every process.
PROPERTY OnAllProcesses<FrequentCommInProcess> FrequentCommOnAllProcesses;
// An MPI communication function called often with little time per call on some processes,
// not on all.
PROPERTY SomeNotAllProcesses<FrequentCommInProcess> FrequentCommSomeProcesses;

// 3.4.1.19: OnAllProcesses over the cache misses in all instances of a process.

// Every instance of a call path on every process has many L1 data cache misses.
PROPERTY OnAllProcesses <L1DCacheMissesInAllInstancesInProcess>
  L1DCacheMissesInAllInstancesInAllProcesses;
// Every instance of a call path on every process has many L1 instruction cache misses.
PROPERTY OnAllProcesses <L1ICacheMissesInAllInstancesInProcess>
  L1ICacheMissesInAllInstancesInAllProcesses;
// Every instance of a call path on every process has many L2 cache misses.
PROPERTY OnAllProcesses <L2CacheMissesInAllInstancesInProcess>
  L2CacheMissesInAllInstancesInAllProcesses;

// 3.3.6 The late sender compound event (figure 3.10) and its property (figure 3.11).
// The report compares enterptr(ROOT).region with MPI_Recv, unquoted: read as the name of
// the function its call path calls ("MPI_Recv"), and so MPI_Send. Figure 3.11 writes
// SUM m.idle_time WHERE ... without parentheses (added), calls the rank basis rank_basis
// and duration (read as RankBasis and Duration), and names the property late_sender, the
// name of the catalog's CRE property (properties/cre/late_sender.sql): here
// LateSenderPattern.

PATTERN LateSender(Region r) {
    ROOTTYPE: Receive;
    INSTANTIATION:
        Send s1 = sendptr(ROOT);
        Enter e1 = enterptr(ROOT);
        Enter e2 = enterptr(s1);
    CONSTRAINT:
        EXISTS e IN Rs(ROOT, ROOT.process_id) SUCH THAT e.region == r AND
        enterptr(ROOT).region.CalledFunc.Name == "MPI_Recv" AND
        enterptr(s1).region.CalledFunc.Name == "MPI_Send" AND
        e2.timestamp > e1.timestamp;
    EXPORT:
        float idle_time = e2.timestamp - e1.timestamp;
}

// Receives in MPI_Recv wait for a later MPI_Send, at or under the call path (over all processes).
PROPERTY LateSenderPattern(Region r, Experiment e, Region RankBasis){
  LET
    float idle_time = SUM(m.idle_time WHERE m IN PATTERN_MATCHES(LateSender(r), e.trace));
  IN
    CONDITION: idle_time>0;
    CONFIDENCE: 1;
    SEVERITY: idle_time/Duration(RankBasis,e);
}
