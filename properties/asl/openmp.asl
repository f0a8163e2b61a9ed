// The OpenMP properties of the ASL report (../shared/seeds/asl-knowledge-specification.txt,
// Appendix E, lines 3392-3609: "Shared Memory Paradigm Performance Properties"),
// transcribed: `cosydb report DB --asl openmp` compiles and evaluates them on the OpenMP
// region summaries of ASL summary input (docs/summary-input.md) or of an OpenMP trace
// (the pattern sm_summary); the data model: cosydb/asl/data_model_openmp.asl. They restate
// the hand-written entries of properties/asl_openmp/ (openmp_costs, ...), which
// tests/test_asl_appendices.py compares them with.
//
// Where the report's text is not valid ASL it is corrected at the place, with a comment
// naming the report's line; what the checker reads as the report writes it (`cosydb asl
// check openmp` lists each place) is:
//   - the parameter "Region rank_basis" (and the templates' SEVERITY reading rank_basis
//     where their parameter is RankBasis): the rank basis, RankBasis, in another spelling;
//   - the templates' LET "cost = cost_func(...)" without type or ';' (3434, 3445), as the
//     report's MPI templates write them.
// par_costs is defined twice (3452, 3457), with three parameters and with two: two
// functions of one name, told apart by their number of arguments, as the report's
// Summary and Duration (3.4.1.1) are; rel_costs's instance takes the first, costs's the
// second. The two experiments of costs and unmeasurable_costs, "Experiment seq, Experiment
// par" (and "Experiment seq, Experiment e"), are the --baseline experiment (seq:
// supplied_data.yaml, parameters) and the loaded one; regions are matched by call path.
// The threshold irreg_behaviour_threshold is a catalog parameter
// (p_irreg_behaviour_threshold; supplied_data.yaml: constants).
//
// remote_access_to_variable, multiple_transfer_of_same_data and
// wrong_page_distribution_for_variable (3528-3594) take a "String var" parameter: a context
// over the variables a region's sums name (supplied_data.yaml, parameters: var), a row per
// region and variable, the variable its condition_id (multiple_transfer_of_same_data's:
// the conditions that hold, then the variable, "Cond1,Cond2:x"), as the hand-written
// entries report them. wrong_page_distribution_for_variable's EXISTS ranges over three
// sets, each read with the variables before it bound (the grammar's quantifier: figure
// 3.4 has one set).

PERFORMANCE PROPERTIES

LET

SmRegionSummary summary(Region r, Experiment e)=
    UNIQUE({s IN e.profile WITH s.region==r});

float sync(Region r, Experiment e)=summary(r,e).sums.region_wait +
    summary(r,e).sums.region_ctrl +
    summary(r,e).sums.cross_thread_dep_wait +
    summary(r,e).sums.cross_thread_dep_ctrl ;

float duration(Region r, Experiment e)=summary(r,e).sums.duration;

// 3422: the report closes a parenthesis it never opened: "... * e.system.remote_access_time);"
float remote_access_time(Region r, Experiment e)=
    summary(r,e).sums.nr_remote_accesses
    * e.system.remote_access_time;

IN

PROPERTY TEMPLATE costs <float cost_func(Region r, Experiment e)>
    (Region r, Experiment e, Region RankBasis){
LET
    cost = cost_func(r,e)
IN
    CONDITION:    cost > 0;
    CONFIDENCE:   1;
    SEVERITY:     cost/duration(rank_basis,e);
}

PROPERTY TEMPLATE rel_costs
    <float cost_func(Region r, Experiment seq,Experiment par)>
    (Region r, Experiment seq, Experiment par, Region RankBasis){
LET
    cost = cost_func(r,seq,par)
IN
    CONDITION:    cost > 0;
    CONFIDENCE:   1;
    SEVERITY:     cost/duration(rank_basis,par);
}

float par_costs(Region r, Experiment seq, Experiment par) = duration(r,par) -
    (duration(r,seq)/par.nr_processors);

// The parallel run loses time against the sequential run divided by the processors.
PROPERTY rel_costs <par_costs> costs;

float par_costs(Region r, Experiment e) =
    summary(r,e).sums.non_parallelized_code +
    sync(r,e) +
    remote_access_time(r,e) +
    summary(r,e).sums.scheduling +
    summary(r,e).sums.additional_calc;

// Measured parallelisation overhead of an OpenMP region.
PROPERTY costs <par_costs> measurable_costs;

// Loss of the parallel run that the measured overheads do not explain.
Property unmeasurable_costs(Region r, Experiment seq, Experiment e, Region rank_basis){
LET
    float total_costs = duration(r,e) - (duration(r,seq)/e.nr_processors);
    float costs = summary(r,e).sums.non_parallelized_code +
        sync(r,e) +
        remote_access_time(r,e) +
        summary(r,e).sums.scheduling +
        summary(r,e).sums.additional_calc;
IN
    CONDITION: total_costs-costs>0;

    CONFIDENCE: 1;

    // 3479: the report calls the constant total_costs as a function, total_costs(r,e)
    SEVERITY: total_costs/duration(rank_basis,e);
}

float non_parallel_code(Region r, Experiment e) =
    summary(r,e).sums.non_parallelized_code;

// Time an OpenMP region spends in code that runs on one thread only.
PROPERTY costs <non_parallel_code> non_parallelized_code;

// Synchronisation overhead of an OpenMP region.
PROPERTY costs <sync> synchronization;

// 3501: the report defines inst_sync in the property's LET, which holds constants (figure
// 3.3): a function of the specification here
float inst_sync(SmInstanceSums sum)=sum.region_wait +
        sum.region_ctrl +
        sum.cross_thread_dep_wait +
        sum.cross_thread_dep_ctrl ;

// An OpenMP region whose synchronisation time varies strongly between its instances.
Property irregular_sync_across_instances
    (Region r, Experiment e, Region rank_basis){
    // 3500-3505: its LET held inst_sync alone (above)
    // 3508: the report reads r.nr_executions, which a Region has not: its summary's
    CONDITION: stdev(inst_sync(inst_sum)
        WHERE inst_sum IN summary(r,e).instance_sums)
        > irreg_behaviour_threshold * sync(r,e)/summary(r,e).nr_executions;
    CONFIDENCE: 1;
    SEVERITY: sync(r,e)/duration(rank_basis,e);
}

float load_imb_cost(Region r, Experiment e) =
    summary(r,e).sums.region_wait;

// Threads wait at the entry or exit barrier of an OpenMP region.
PROPERTY costs <load_imb_cost> load_imbalance;

// Estimated time of the remote (ccNUMA) memory accesses of an OpenMP region.
PROPERTY costs <remote_access_time> remote_accesses;

// Estimated time of the remote (ccNUMA) memory accesses of an OpenMP region to one variable.
Property remote_access_to_variable
    (Region r, Experiment e, String var, Region rank_basis)
{
LET
    VariableRemoteAccesses var_sum =
        UNIQUE({info IN summary(r,e).sums.accessed_variables
            WITH info.var_name==var});
IN
    CONDITION: var_sum.nr_remote_accesses > 0;
    CONFIDENCE: 1;
    SEVERITY: var_sum.nr_remote_accesses * e.system.remote_access_time
        /duration(rank_basis,e);
}

// The same cache lines of a variable move between processors more than once.
Property multiple_transfer_of_same_data
    (Region r, Experiment e, String var, Region rank_basis)
{
LET
    VariableRemoteAccesses var_info =
        UNIQUE({info IN summary(r,e).sums.accessed_variables WITH info.var_name==var});
IN

CONDITION: (Cond1)
    (var_info.nr_remote_accesses * e.nr_processors > var_info.size
    / e.system.cache_line_size*summary(r,e).nr_executions)
OR
(Cond2)
    (var_info.nr_remote_accesses * e.nr_processors
    > 0.5 * var_info.size / e.system.cache_line_size * summary(r,e).nr_executions);

CONFIDENCE: MAX( (Cond1)->1, (Cond2)->0.5 );

SEVERITY: var_info.nr_remote_accesses * e.system.remote_access_time
    /duration(rank_basis,e);
}

// 3577: the report defines var_sum in the property's LET, which holds constants (figure
// 3.3): a function of the specification here
VariableRemoteAccesses var_sum(String var,setof VariableRemoteAccesses info_set) =
        UNIQUE({info IN info_set WITH info.var_name==var});

// A page of a variable is accessed remotely by one thread only: it may live on the wrong node.
Property wrong_page_distribution_for_variable
    (Region r, Experiment e, String var, Region rank_basis)
{
    // 3576-3579: its LET held var_sum alone (above)
    // 3582, 3584: the report reads summary(r,e).thread_sums and .accessed_variables, which
    // an SmRegionSummary has not: its sums' (SmSums)
    CONDITION:
        EXISTS
            thr_sum    IN summary(r,e).sums.thread_sums,
            thr_psum   IN var_sum(var,thr_sum.accessed_variables).page_sums,
            glo_psum   IN {s IN var_sum(var,summary(r,e).sums.accessed_variables).page_sums
                WITH s.page_no==thr_psum.page_no}
        SUCH THAT
            thr_psum.nr_remote_accesses!=0
        AND
            thr_psum.nr_remote_accesses==glo_psum.nr_remote_accesses;

    CONFIDENCE: 0.5;
    // 3592: the report reads summary(r,e).accesses_variables (a misspelling, and the sums'
    // set again); 3593: duration(rank_basis) without the experiment
    SEVERITY: var_sum(var,summary(r,e).sums.accessed_variables).nr_remote_accesses
        * e.system.remote_access_time/duration(rank_basis,e);
}

// An OpenMP parallel region entered many times, each costing the start of a team.
Property parallel_organization( Region r, Experiment e, Region rank_basis) {

    CONDITION: typeof(summary(r,e).region)==ParallelRegion
        AND summary(r, e).nr_executions > 1 ;
    CONFIDENCE: 1;
    SEVERITY: summary(r,e).nr_executions *
        e.system.parallel_region_cost / duration(rank_basis,e);
}

END
