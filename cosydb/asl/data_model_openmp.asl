// The ASL performance data model of the shared memory paradigm: the report's Appendix E
// (../shared/seeds/asl-knowledge-specification.txt, lines 3038-3378, "OpenMP Property
// Specification"), transcribed. Where the report's text is not valid ASL, or its properties
// read what the data model does not declare, it is read as noted (report lines):
//   - SmRegion.deps is declared "Dependence deps[]" (3045), an array: read as
//     "setof Dependence deps".
//   - Function (3063) and FunctionCall (3059) are names Appendix C gives the MPI classes
//     (the MPI function, a call site): here SmFunction and SmFunctionCall (the properties
//     name neither).
//   - SmRegionSummary.nr_executions ends without ';' (3232): read as ended.
//   - VariableRemoteAccesses declares "setof PageRemoteAccesses;" without a name (3365); the
//     properties read it as page_sums (3583, 3584): declared as page_sums.
//   - DSMMachine.remote_access_time is an int (3187), a time in seconds: a float. The
//     properties read e.system.cache_line_size (3557) and e.system.parallel_region_cost
//     (3606), which no class declares: declared on DSMMachine. Experiment.system (Appendix
//     B: a Machine) is cosydb's DSMMachine (supplied_data.yaml).
//   - ParallelRegion's comment reads "Common information for sequential regions" (3097,
//     3102), SequentialRegion's: kept as a comment.
// Classes of Appendix B the report uses here (Region, RegionSummary, Dependence, Machine)
// are data_model.asl's.

// SMP static information

class SmRegion extends Region {            // Region subclass for SM regions
    setof Dependence deps;                 // Dependence information (the report: deps[])
}

// Sequential regions

class SequentialRegion extends SmRegion {
    // Common information for sequential regions go here
}

// Examples for sequential regions

class SmFunctionCall extends SequentialRegion {  // the report's FunctionCall (see above)
}

class SmFunction extends SequentialRegion {      // the report's Function (see above)
}

class IfBlock extends SequentialRegion {
}

class BasicBlock extends SequentialRegion {
}

// Parallel regions

class ParallelRegion extends SmRegion {
    // Common information for parallel regions
    boolean no_wait_exit;                  // Region is not terminated by barrier
}

// Examples for parallel regions

class PDo extends ParallelRegion {
    SMTypes.scheduling_type scheduling_strategy;  // Static, Dynamic, Guided ...
}

class PSection extends ParallelRegion {
}

class PRegion extends ParallelRegion {
}

class SMTypes {
    enum scheduling_type {Static, Dynamic, Guided};
}

class DSMMachine extends Machine {         // Properties of target machine
    float remote_access_time;              // Remote access time (the report: int)
    int cache_line_size;                   // bytes per coherence unit (not in Appendix E)
    float parallel_region_cost;            // time to start a parallel region (not in Appendix E)
}

// SMP dynamic information: summary data

class SmRegionSummary extends RegionSummary {
    // Summary information for region
    SmSums sums;                           // Sums for whole execution
    setof SmInstanceSums instance_sums;    // Sums per region instance
    int nr_executions;                     // Number of instances
}

class SmSums {
    float duration;                        // Execution time of master
    float non_parallelized_code;           // Sequential time (duration -
                                           // duration for parallel regions)
    float seq_fraction;                    // Seq_time / duration
    int nr_remote_accesses;                // Number of remote memory accesses
    float scheduling;                      // Compiler and or user scheduling time
    float additional_calc;                 // Time for additional calculations
    float cross_thread_dep_ctrl;           // Synchronization except entry and exit
                                           // barrier and except waiting time
                                           // in locks etc.
    float cross_thread_dep_wait;           // Synchronization waiting time except
                                           // waiting in entry or exit barrier
    float region_wait;                     // Waiting in entry or exit barrier
    float region_ctrl;                     // Time for instructions at master
                                           // e.g. barriers and organization
    int nr_cache_misses;                   // Number of cache misses
    setof SmThreadSums thread_sums;        // Thread specific summary data
    setof VariableRemoteAccesses
        accessed_variables;                // These objects determine the number of
                                           // remote accesses for variables
                                           // accessed in that region
}

class SmThreadSums {
    int thread_no;                         // Thread id
    float region_wait;
    int nr_remote_accesses;
    float additional_calc;
    float cross_thread_dep_ctrl;
    float cross_thread_dep_wait;
    int nr_cache_misses;
    setof VariableRemoteAccesses
        accessed_variables;                // remote accesses per variable
}

class SmInstanceSums {
    int nr_threads;                        // Number of threads executing the region
    float duration;                        // Execution time of master
    float non_parallelized_code;
    float seq_fraction;
    int nr_remote_accesses;
    float scheduling;
    float additional_calc;
    float cross_thread_dep_ctrl;
    float cross_thread_dep_wait;
    float region_wait;
    float region_ctrl;
    int nr_cache_misses;
    setof SmThreadInstanceSums thread_sums; // Thread specific instance information
    setof VariableRemoteAccesses
        accessed_variables;                // remote accesses per variable
}

class SmThreadInstanceSums {
    int thread_no;                         // Thread id
    float region_wait;
    int nr_remote_accesses;
    float additional_calc;
    float cross_thread_dep_ctrl;
    float cross_thread_dep_wait;
    int nr_cache_misses;
    setof VariableRemoteAccesses
        accessed_variables;                // remote accesses per variable
}

class VariableRemoteAccesses {
    String var_name;                       // Name of a variable accessed in region
    int nr_remote_accesses;                // Number of remote accesses via
                                           // references to this variable
    int size;                              // Size in bytes
    setof PageRemoteAccesses page_sums;    // For each page of this variable the
                                           // number of remote accesses (see above)
}

class PageRemoteAccesses {
    int page_no;                           // Page number related to
                                           // virtual address space
    int nr_remote_accesses;                // Number of remote accesses
}
