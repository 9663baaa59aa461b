"""Sweeps: every check of every page across seeds and at full scale, executed on Dask (``make sweep``).

A page's tests are judged over seeds, never on one: a sweep re-executes the notebooks over many seeds at a
chosen scale and keeps, per check, its raw values at every seed; :mod:`repro.claims.judge` turns them into
statuses when the book is built.

One concern per file:

* :mod:`repro.sweep.records` -- the record schema, seeds, hashes, staleness;
* :mod:`repro.sweep.runner` -- running the (notebook, seed) tasks on Dask and writing the records;
* :mod:`repro.sweep.bench` -- the LocalCluster against the two-process pool;
* ``python -m repro.sweep`` -- the command line (:mod:`repro.sweep.__main__`).

The book's HTML of the records lives with the rest of the site, in :mod:`repro.site`.
"""

from repro.sweep.records import (
    EXEC_SCALE,
    RECORDS,
    SCALES,
    SCHEMA,
    SCHEMA_VERSION,
    build_record,
    dump_record,
    frozen_input_hash,
    load_records,
    parse_seeds,
    record_path,
    records_root,
    run_of,
    runs_of_record,
    schema_errors,
    seeds_text,
    state,
    sweep_hash,
    sweeps_of,
    validate_record,
    value_stats,
)
from repro.sweep.runner import (
    SweepResult,
    frozen_commit_of,
    plan,
    report,
    run_sweep,
    start_cluster,
    sweep_task,
    task_dir,
    write_records,
)

__all__ = ["EXEC_SCALE", "RECORDS", "SCALES", "SCHEMA", "SCHEMA_VERSION", "SweepResult", "build_record",
           "dump_record", "frozen_commit_of", "frozen_input_hash", "load_records", "parse_seeds", "plan",
           "record_path", "records_root", "report", "run_of", "run_sweep", "runs_of_record", "schema_errors",
           "seeds_text", "start_cluster", "state", "sweep_hash", "sweep_task", "sweeps_of", "task_dir",
           "validate_record", "value_stats", "write_records"]
