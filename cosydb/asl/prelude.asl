// The ASL report's global definitions (../shared/seeds/asl-knowledge-specification.txt,
// 3.4.1.1 MPI global definitions), which every ASL file sees: a file may use them and may
// define a function of the same name and number of parameters instead. ProcessProfiles's
// definition ends with ';', which the report's text leaves out.

MPISummary Summary(MPIRegion r, Experiment e)=
    UNIQUE({sumr IN e.profile WITH sumr.region==r AND sumr.Proc==ALLPROCESSES});

MPISummary Summary(MPIRegion r, Experiment e, Process p)=
    UNIQUE({sumr IN e.profile WITH sumr.region==r AND sumr.Proc==p});

Setof MPISummary ProcessProfiles(MPIRegion r, Experiment e)=
    {sumr IN e.profile WITH sumr.region==r AND sumr.Proc!=ALLPROCESSES};

float Duration(MPIRegion r, Experiment e)= Summary(r,e).Incl;

float Duration(MPIRegion r, Experiment e, Process p)= Summary(r,e,p).Incl;
