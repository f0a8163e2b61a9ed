float Share = 0.08;

MPISummary Summary(Region r, Experiment e, Process p) =
    UNIQUE({s IN e.profile WITH s.region == r AND s.Proc == p});

// An MPI call that takes more than 8 % of the rank basis on some processes, not on all.
// Severity: its largest share of the rank basis on one process.
PROPERTY MpiCallHeavyOnSomeProcesses(FuncCall r, Experiment e, Region RankBasis) {
LET
    setof Process Heavy = {p IN e.processes WITH
        Summary(r, e, p).Incl > Share * Summary(RankBasis, e, p).Incl};
    int Processes = COUNT(p WHERE p IN e.processes);
IN
    CONDITION: typeof(r.CalledFunc) == MPIFunction
        AND COUNT(p WHERE p IN Heavy) > 0 AND COUNT(p WHERE p IN Heavy) < Processes;
    CONFIDENCE: 1;
    SEVERITY: MAX(Summary(r, e, p).Incl / Summary(RankBasis, e, p).Incl WHERE p IN Heavy);
}
