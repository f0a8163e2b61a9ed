// The HPF properties of the ASL report (../shared/seeds/asl-knowledge-specification.txt,
// Appendix D, lines 2783-3021: "Data Parallel Programming Paradigm Performance
// Properties"), transcribed: `cosydb report DB --asl hpf` compiles and evaluates them on
// ASL summary input (docs/summary-input.md; the data model: cosydb/asl/data_model_hpf.asl).
// They restate the hand-written entries of properties/asl_hpf/ (hpf_communication_costs,
// ...), which tests/test_asl_appendices.py compares them with.
//
// Where the report's text is not valid ASL it is corrected at the place, with a comment
// naming the report's line; what the checker reads as the report writes it (`cosydb asl
// check hpf` lists each place) is:
//   - the parameter "Region rank_basis" (and the template's SEVERITY reading rank_basis where
//     its parameter is RankBasis): the rank basis, RankBasis, in another spelling;
//   - costs's body without its opening '{' (2805), and its LET "cost = cost_func(...)"
//     without type or ';' (2813), as the report's MPI templates write them;
//   - EXP(x, 2) (2996): x to the power 2 (the report's EXP of two arguments).
// The two experiments of serialization_costs and uneven_work_distribution, "Experiment seq,
// Experiment par", are the --baseline experiment (seq: supplied_data.yaml, parameters) and
// the loaded one; regions are matched by call path.
// The thresholds loop_serial_threshold and uneven_threshold are catalog parameters
// (p_loop_serial_threshold, p_uneven_threshold; supplied_data.yaml: constants).

PERFORMANCE PROPERTIES

LET

// 2787: the report writes {sumr IN e.profile | sumr.region==r}: '|' for WITH (figure 3.5)
HPFRegionSummary summary(HPFRegion r, Experiment e)=
    UNIQUE({sumr IN e.profile WITH sumr.region==r});

float duration(Region r, Experiment e)=summary(r,e).sums.duration;

IN

PROPERTY TEMPLATE costs <float cost_func(HPFRegionSummary)>
(HPFRegion r, Experiment e, Region RankBasis)
LET
cost = cost_func(summary(r,e))
IN
CONDITION: cost > 0;
CONFIDENCE: 1;
SEVERITY: cost/duration(rank_basis,e);
}

// 2837, 2875, 3014: the report declares the cost functions' parameter "RegionSummary rs",
// which has no sums (an HPFRegionSummary has, the type of costs's cost_func's parameter)
float comm_costs(HPFRegionSummary rs) = rs.sums.comm_time;

// Communication time of an HPF region (means over its processes).
PROPERTY costs <comm_costs> communication_costs;

// Synchronisation time of an HPF FORALL loop.
Property forall_synchronization_costs (HPFRegion r, Experiment e, Region rank_basis){
LET
float forall_sync_time = summary(r,e).sums.sync_time;
IN
CONDITION: typeof(summary(r,e).region)==HPFLoop AND
summary(r,e).region.ltype == FORALL AND
forall_sync_time > 0;
CONFIDENCE: 1;
SEVERITY: forall_sync_time/duration(rank_basis,e);
// 2871: the report's property ends without its closing '}'
}

float io_time(HPFRegionSummary rs) = rs.sums.io_time;

// Input/output time of an HPF region.
PROPERTY costs <io_time> io_costs;

// Compiler overhead of an HPF region run by more than one process.
Property parallel_organization_costs( Region r, Experiment e, Region
rank_basis) {
CONDITION: COUNT(procs WHERE procs IN summary(r,e).processes) > 1 ;
CONFIDENCE: 1;
// 2896: the report reads summary(r,e).compiler_ovh_time, which an HPFRegionSummary does
// not have: its sums's
SEVERITY: summary(r,e).sums.compiler_ovh_time / duration(rank_basis,e);
}

// Time spent redistributing arrays inside procedures (COND1) or at REDISTRIBUTE (COND2).
Property redist_costs (HPFRegion r,Experiment e,Region rank_basis) {
LET
redist1 = summary(r,e).sums.impl_redistr_time;
redist2 = summary(r,e).sums.expl_redistr_time;
IN
CONDITION:
(Cond1)
((typeof(summary(r,e).region)==HPFProcedure)
AND
(EXISTS dec IN summary(r,e).region.decls
SUCH THAT
dec.format==PRESCRIPTIVE OR dec.format==TRANSCRIPTIVE)
        AND
        (redist1 > 0))
    OR
    (Cond2)
        ((typeof(summary(r,e).region)==HPFRedistribute)
        AND
        (EXISTS dec IN summary(r,e).region.decls
        SUCH THAT dec.alloc == DYNAMIC)
        AND
        // 2962: the report ends the conditions without ';'
        (redist2 > 0));
CONFIDENCE:  MAX((Cond1)->0.8, (Cond2)->1.0);
SEVERITY:    MAX((Cond1)->redist1 / duration(rank_basis,e),
                (Cond2)->redist2 / duration(rank_basis,e));
}

// An HPF region whose parallel computation takes as long as running it sequentially.
Property serialization_costs (HPFRegion r, Experiment seq, Experiment par, Region rank_basis){
LET
    float par_comp_costs = summary(r,par).sums.duration -
        summary(r,par).sums.comm_time -
        summary(r,par).sums.sync_time -
        summary(r,par).sums.idle_time -
        summary(r,par).sums.compiler_ovh_time -
        summary(r,par).sums.io_time;

IN
    // 2982: the report ends the CONDITION without ';'
    CONDITION:  par_comp_costs > (duration(r,seq) * loop_serial_threshold);
    CONFIDENCE:  1;
    SEVERITY:   par_comp_costs / (duration(rank_basis,par));
}

// Computation of an HPF region unevenly distributed over its processes.
Property uneven_work_distribution (HPFRegion r, Experiment seq, Experiment par,
                                   Region rank_basis) {
LET
    int nr_processes = COUNT(procs WHERE procs IN summary(r,par).processes);
    float opt_duration = duration(r,seq)/nr_processes;
    // 3002: the report reads summary(r,par).proc_sums: HPFRegionSummary's set is process_sums
    float deviation = SQRT(SUM (EXP(proc_sum.duration -
        proc_sum.comm_time -
        proc_sum.sync_time -
        proc_sum.idle_time -
        proc_sum.compiler_ovh_time -
        proc_sum.io_time - opt_duration, 2)
        WHERE proc_sum IN summary(r,par).process_sums ))

IN
    // 3005, 3007: the report ends the CONDITION and the SEVERITY without ';'
    CONDITION: (deviation / opt_duration) > uneven_threshold;
    CONFIDENCE:  1;
    SEVERITY:   summary(r,par).sums.duration / duration(rank_basis,par);
}

float inspector_time(HPFRegionSummary rs) = rs.sums.inspector_time;

// Time in the inspector phase of an irregular HPF loop.
PROPERTY costs <inspector_time> inspector_costs;

END
