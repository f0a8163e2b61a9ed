// The ASL performance data model of the data parallel paradigm: the report's Appendix D
// (../shared/seeds/asl-knowledge-specification.txt, lines 2640-2774, "HPF Property
// Specification"), transcribed. Where the report's text is not valid ASL, or its properties
// read what the data model does not declare, it is read as noted (report lines):
//   - HPFTypes.hpf_directive (2740) and hpf_loop_type (2741) end their values with "...":
//     left out (an enum lists its values).
//   - HPFTypes.hpf_distr_type (2743) lists the strings "*" and ":" among its names: read as
//     the names STAR (a dimension not distributed) and COLON (aligned with ':').
//   - hpf_distr_type and hpf_distr_format (2743, 2744) end without ';': read as ended.
//   - HPFLoop.ltype (2658) is declared of class HPFLoopType, whose one member (2773) is the
//     enum HPFTypes.hpf_loop_type; forall_synchronization_costs compares it with FORALL
//     (2862): declared as the enum HPFTypes.hpf_loop_type.
//   - redist_costs (2912, 2916) reads sums.impl_redistr_time and sums.expl_redistr_time,
//     which HPFSummary does not declare (it has redistrib_time): declared on HPFSummary and
//     HPFProcessSummary beside redistrib_time (their sum).
//   - redist_costs (2957) tests for the class HPFRedistribute, which the report declares
//     nowhere: declared here, an HPFRegion (a REDISTRIBUTE statement), as cosydb's summary
//     input has it (docs/summary-input.md).
//   - the same names are values of two enums (INDEPENDENT: a directive and a loop type;
//     DYNAMIC: a directive and an allocation): a name compares as its text in either.
// Classes of Appendix B the report uses here (Region, RegionSummary, Dependence, Process)
// are data_model.asl's.

// HPF static information

class HPFRegion extends Region {
    setof Dependence deps;           // data dependence information of this region
    setof HPFDirective dirs;         // HPF directives
    setof HPFDataDeclaration decls;  // HPF declarations
}

// Examples for HPF regions

class HPFProcedure extends HPFRegion {  // Procedure is function or subroutine
}

class HPFLoop extends HPFRegion {
    HPFTypes.hpf_loop_type ltype;    // type of loop (the report: HPFLoopType; see above)
}

class HPFIfBlock extends HPFRegion {
}

class HPFBasicBlock extends HPFRegion {
}

class HPFProcedureCall extends HPFRegion {
}

class HPFArrayAssignment extends HPFRegion {
}

// not in Appendix D: redist_costs's REDISTRIBUTE statement (see above)
class HPFRedistribute extends HPFRegion {
}

// HPF dynamic information: summary data

class HPFRegionSummary extends RegionSummary {
    setof Process processes;              // set of processes executing this region
    HPFSummary sums;                      // performance summary across all processes
    setof HPFProcessSummary process_sums; // performance summary per process
}

class HPFSummary {
    // summary information (arithmetic mean) across all
    // processes for a given region
    int nr_executions;        // average number of times this region has been executed
                              // across all processes executing this region
    float duration;           // execution time
    float comm_time;          // communication time
    float dep_comm_time;      // communication time caused by data dependences
    float align_comm_time;    // communication time caused by data alignment
    float sync_time;          // barrier, reduce, allreduce, ...
    float idle_time;          // idle time
    float io_time;            // input/output time
    float compiler_ovh_time;  // compiler overhead time
    float inspector_time;     // time for inspector phase
    float redistrib_time;     // time for redistribution of data structures
    float impl_redistr_time;  // implicit redistribution (not in Appendix D; see above)
    float expl_redistr_time;  // explicit redistribution (not in Appendix D; see above)
    int nr_cache_misses;      // number of cache misses
}

class HPFProcessSummary {
    // performance summary (arithmetic mean) for
    // individual process across all region instances
    Process process;          // process identification
    int nr_executions;        // number of times this region has been executed by process
    float duration;           // execution time
    float comm_time;          // communication time
    float dep_comm_time;      // communication time caused by data dependences
    float align_comm_time;    // communication time caused by data alignment
    float sync_time;          // barrier, reduce, allreduce, ...
    float idle_time;          // idle time
    float io_time;            // input/output time
    float compiler_ovh_time;  // compiler overhead time
    float inspector_time;     // time for inspector phase
    float redistrib_time;     // time for redistribution of data structures
    float impl_redistr_time;  // implicit redistribution (not in Appendix D; see above)
    float expl_redistr_time;  // explicit redistribution (not in Appendix D; see above)
    int nr_cache_misses;      // number of cache misses
}

// HPF utility classes

class HPFTypes {
    enum hpf_directive {PROCESSORS, DISTRIBUTE, ALIGN, RESHAPE, INDEPENDENT, DYNAMIC};
    enum hpf_loop_type {DO, INDEPENDENT, FORALL};
    enum hpf_var_arr {VARIABLE, ARRAY};
    enum hpf_distr_type {BLOCK, CYCLIC, STAR, COLON};
    enum hpf_distr_format {PRESCRIPTIVE, DESCRIPTIVE, TRANSCRIPTIVE, INHERIT};
    enum hpf_alloc {DYNAMIC, STATIC};
}

class HPFDataDeclaration {
    String name;                      // name of data
    String data_type;                 // type of data (int, float, ...)
    int rank;                         // rank of data
    HPFTypes.hpf_var_arr type;        // type of data (variable or array)
    HPFTypes.hpf_alloc alloc;         // allocation type
    HPFTypes.hpf_distr_format format; // prescriptive, descriptive, transcriptive,
                                      // inherit distribution format
    setof ArrayDimension dims;        // more information for each dimension of arrays
}

class ArrayDimension {
    HPFDataDeclaration decl;          // declaration of associated array
    int size;                         // size of dimension
    setof Process processes;          // set of processes onto which dimension is mapped
    HPFTypes.hpf_distr_type type;     // data distribution type
    int block_size;                   // for CYCLIC(block_size) or BLOCK(block_size)
    ArrayDimension align;             // aligned with some other array dimension
}

class HPFDirective {
    HPFTypes.hpf_directive hpf_dir;   // HPF directives
}

class HPFLoopType {
    HPFTypes.hpf_loop_type ltype;     // HPF loop type
}
