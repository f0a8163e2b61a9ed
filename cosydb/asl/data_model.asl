// The ASL performance data model: the APART base classes (report, Appendix B) and the
// message-passing classes (Appendix C), transcribed. Where the report's text is not
// valid ASL it is read as noted:
//   - GeneralTypes.dep_dir lists '<', '>', '=' and closes with ')': read as names Less,
//     Greater, Equal and '}'.
//   - Machine is declared twice with the same member: declared once.
//   - MPIRegion, the parameter type of Summary, Duration and ProcessProfiles (Appendix
//     C), is declared nowhere, and the report passes FuncCalls, Functions and the rank
//     basis to them: read as Region (cosydb/asl/model.py, SYNONYMS).
//   - Exit's member list continues after a page break (InstInstr ... StoreInstr): joined.
//   - MPISummary's "Instinstr" and Exit's "InstInstr" are kept as written.
//   - Experiment declares no set of processes, which the report's properties read as
//     e.processes (and e.Processes): declared here (setof Process processes).
//   - The trace patterns of section 3.3 read the CRE model enhancement's pointer attributes
//     (enterptr(e): the Enter of the region instance around e; sendptr(r): the Send of the
//     message r receives) and an event's place in its location's order: declared on Event
//     and Receive (enterptr, sendptr, seq).
//   - A trace gives a call path its master-slave role per process (a receive in code that
//     master and slaves both run is the master's MasterRecv and a slave's SlaveRecv):
//     declared on MPISummary (Role), beside FuncCall's role (the roles it plays anywhere).
// Primitive types: int, float, boolean, String, DateTime.

class Application {
    String name;                  // Name of application
    setof Version versions;       // Versions
}

class Version {
    int version_no;               // Version number
    setof SourceFile files;       // Source files
    setof Experiment experiments; // Multiple experiments
}

class SourceFile {
    String name;                  // File name
    String contents;              // File contents
    setof Region regions;         // Regions included in file
}

class Region {
    Position start_pos;           // Start position (line, column) in file
    Position end_pos;             // End position
    setof Region sub_regions;     // Regions nested in that region
    setof Region successors;      // Successor regions according to region control flow
    setof Region predecessors;    // Predecessor regions
}

class Experiment {
    DateTime start_time;          // Start time of the experiment
    int nr_processors;            // Number of used processors
    setof RegionSummary profile;  // Summed up information for events
    setof Event trace;            // Trace records for individual events
    Machine system;               // Machine characterization
    setof Process processes;      // The processes (not in Appendix B; see above)
}

class Event {
    float timestamp;              // Timestamp of event
    Process process_id;           // Process number
    Enter enterptr;               // the Enter of the region instance around it (CRE)
    int seq;                      // its place in its location's events (CRE's event order)
}

class RegionSummary {
    Region region;                // Region with measured data
}

class Dependence {
    Region src;                   // Source of dependence
    Region dst;                   // Destination of dependence
    GeneralTypes.dep_type type;   // Type of data dependence
    GeneralTypes.dep_dir direction; // Direction of dependence
    int distance;                 // Distance of dependence
    int level;                    // Loop level that carries dependence
}

class GeneralTypes {
    enum dep_dir {Less, Greater, Equal};  // Direction of dependence
    enum dep_type {True, Anti, Output};   // Type of dependence
}

class LoopHeader {
    String lower;
    String upper;
    String stride;
}

class Position {
    int line;
    int col;
}

class Process {
    int process_id;
}

class Machine {
    int nr_processors;
}

// Appendix C: MPI static information

class MPIApplication extends Application {
    MPITypes.ParadigmType Paradigm;  // defines implemented paradigm
}

class Function extends Region {
    int NumCallSites;             // call sites in function
    String Name;                  // function name
    setof FuncCall Calls;         // call sites in function
}

class FuncCall extends Region {
    Function CalledFunc;          // called function
    Function Caller;              // calling function
    MPITypes.ParadigmRole role;   // role of this region in paradigm
}

class MPIFunction extends Function {
}

class MPICommFunc extends MPIFunction {
}

class MPISyncFunc extends MPIFunction {
}

class MPIioFunc extends MPIFunction {
}

class MPIp2pFunc extends MPICommFunc {
    MPITypes.CommType type;       // e.g. send, receive
    MPITypes.CommMode mode;       // buffered, synchronous, ready
    MPITypes.CommSemantics semantics; // blocking, nonblocking
}

class MPICollFunc extends MPICommFunc {
    MPITypes.CollType type;       // reduction, broadcast
}

// MPI dynamic information: summary data

class MPISummary extends RegionSummary {
    Process Proc;                 // process or ALLPROCESSES
    float Excl;                   // exclusive execution time
    float Incl;                   // inclusive execution time
    float CommTime;               // communication time
    float SyncTime;               // synchronization time
    float IoTime;                 // IO time
    float IdleTime;               // idle time in communication
    int MessageLength;            // sum of sent/received messages
    int NrExecutions;             // number of region instances
    int L1DCacheMisses;           // level 1 cache misses
    int L1ICacheMisses;           // instruction cache misses
    int L2CacheMisses;            // level two cache misses
    int Instinstr;                // integer instructions
    int FpInstr;                  // floating point instructions
    int LoadInstr;                // load instructions
    int StoreInstr;               // store instructions
    MPITypes.ParadigmRole Role;   // the call path's role on Proc (not in Appendix C; see above)
}

// MPI dynamic information: events

class Enter extends Event {
    Region region;                // entered region
}

class Exit extends Event {
    Region region;                // left region
    float Excl;
    float Incl;
    float CommTime;
    float SyncTime;
    float IoTime;
    float IdleTime;
    int MessageLength;
    int NrExecutions;
    int L1DCacheMisses;
    int L1ICacheMisses;
    int L2CacheMisses;
    int InstInstr;
    int FpInstr;
    int LoadInstr;
    int StoreInstr;
}

class Send extends Event {
    int Tag;                      // message tag
    int Length;                   // message length
    Process Destination;          // target process
}

class Receive extends Event {
    int Tag;
    int Length;
    Process Sender;               // source process
    Send sendptr;                 // the Send of the message received (CRE)
}

class Collective extends Event {
    Communicator Communic;        // active communicator
    int Length;                   // total length of all messages
}

class Communicator {
    setof Process processes;
}

class MPITypes {
    enum CommMode {Buffered, Sync, Ready};
    enum CollType {Reduction, Broadcast};
    enum CommType {Send, Recv, SendRecv};
    enum CommSemantics {Blocking, Nonblocking};
    enum ParadigmType {MasterSlave, DivideConquer, Farming};
    enum ParadigmRole {MasterSend, MasterRecv, SlaveSend, SlaveRecv};
}
