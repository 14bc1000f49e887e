"""Scale: 1,000,000 rows x 30 binary variables; wall time and peak RSS of each step.

Run: ``python benchmarks/bench_scale.py`` (options: ``--rows``, ``--variables``, ``--iterations``).
Data larger than memory: ``python benchmarks/bench_scale.py --pool --rows 100000000`` (see below).

Each step runs in a fresh subprocess, which simulates the data itself (a fixed seed) and reports
its own peak resident set size (``resource.getrusage(RUSAGE_SELF).ru_maxrss``), so steps do not
inherit each other's peaks. The data are simulated with dependence: every variable copies one of
the previous variables with probability 0.8 (else a fair coin), and in every fifth variable the
copy is taken only in one context of a neighbour of that variable (context-specific dependence;
the generating graph is chordal, with triangles). Columns are ``int64``, as ``pandas.read_csv``
gives them.

Steps:

* ``data``: simulation only (the baseline each step includes);
* ``encode``: :class:`~pgmpy_sgm.core.data.EncodedData` of the frame;
* ``score``: :class:`~pgmpy_sgm.structure_score.SGMScore` and the score of three graphs (empty,
  the generating chain's skeleton, and the same with optimal strata);
* ``mcmc``: :class:`~pgmpy_sgm.causal_discovery.NonReversibleMCMC` with one chain of 1,000
  iterations.

With ``--pool`` (default 10^8 rows x 30 binary columns) the data are generated in chunks of
10^6 rows (:func:`chunk`: the same chordal structure, an independent random stream per chunk)
into one Parquet file with a row group per chunk, in a temporary folder deleted afterwards, and:

* ``pool-dask``: a Dask ``LocalCluster`` (2 worker processes, 1 thread each) pools the file
  (``dask.dataframe.read_parquet``, a partition per row group) with
  :func:`~pgmpy_sgm.core.pooling.pool_data`; then ``NonReversibleMCMC`` learns from the pooled
  table. Reports the pooling time per 10^7 rows, the peak RSS of the driver and of each worker;
* ``pool-cli``: ``pgmpy-sgm learn FILE.parquet --no-strata`` in one process (chunked reader);
  reports its time and peak RSS, and the chunked reading alone;
* ``check``: on the first 10^6 rows, the in-memory fit, the Dask fit and the chunked reader's
  fit give the same model and score.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import resource
import subprocess
import sys
import time

GOAL_GB = 4.0


def simulate(n_rows: int, n_vars: int, seed: int = 0):
    """A DataFrame of dependent binary columns (int64) and the edges that generated it."""
    import numpy as np
    import pandas as pd

    rng = np.random.default_rng(seed)
    columns = {}
    edges = []
    neighbours: dict[str, list[str]] = {}
    for j in range(n_vars):
        name = f"x{j:02d}"
        coin = rng.integers(0, 2, n_rows, dtype=np.int8)
        neighbours[name] = []
        if j == 0:
            columns[name] = coin
            continue
        parent = f"x{int(rng.integers(max(0, j - 3), j)):02d}"
        copy = rng.random(n_rows) < 0.8
        parents = [parent]
        if j % 5 == 0 and neighbours[parent]:  # the copy only happens in one context of a neighbour of parent
            other = neighbours[parent][int(rng.integers(len(neighbours[parent])))]
            copy &= columns[other] == 1
            parents.append(other)  # {other, parent, name} is a clique: the graph stays chordal
        columns[name] = np.where(copy, columns[parent], coin).astype(np.int8)
        for p in parents:
            edges.append((p, name))
            neighbours[p].append(name)
            neighbours[name].append(p)
    values = np.empty((n_rows, n_vars), dtype=np.int64)
    for j, column in enumerate(columns.values()):
        values[:, j] = column
    frame = pd.DataFrame(values, columns=list(columns), copy=False)
    return frame, edges


def structure(n_vars: int, seed: int = 0) -> list[tuple[int, int | None, int | None]]:
    """``(parent, context, variable)`` of each variable, as :func:`simulate` draws them (without the data)."""
    import numpy as np

    rng = np.random.default_rng(seed)
    out: list[tuple[int, int | None, int | None]] = []
    neighbours: dict[int, list[int]] = {0: []}
    for j in range(1, n_vars):
        parent = int(rng.integers(max(0, j - 3), j))
        other = None
        if j % 5 == 0 and neighbours[parent]:
            other = neighbours[parent][int(rng.integers(len(neighbours[parent])))]
        neighbours[j] = [parent] + ([other] if other is not None else [])
        for p in neighbours[j]:
            neighbours[p].append(j)
        out.append((parent, other, j))
    return out


def structure_edges(n_vars: int, seed: int = 0) -> list[tuple[str, str]]:
    """The moral graph of the DAG that :func:`chunk` samples from (columns ``x00..``), decomposable by construction.

    Each variable is joined to its parent and, every fifth, to the neighbour of its parent in whose context it
    copies the parent; that neighbour and the parent are adjacent already, so each new variable is simplicial.
    """
    out = []
    for parent, other, j in structure(n_vars, seed):
        out.append((f"x{parent:02d}", f"x{j:02d}"))
        if other is not None:
            out.append((f"x{other:02d}", f"x{j:02d}"))
    return out


def chunk(n_rows: int, n_vars: int, index: int, seed: int = 0):
    """Chunk ``index`` of the large data: int8 columns ``x00..``, the chunk's own random stream."""
    import numpy as np
    import pandas as pd

    rng = np.random.default_rng([seed, index])
    columns = [rng.integers(0, 2, n_rows, dtype=np.int8)]
    for parent, other, _ in structure(n_vars, seed):
        coin = rng.integers(0, 2, n_rows, dtype=np.int8)
        copy = rng.random(n_rows) < 0.8
        if other is not None:  # the copy only happens in one context of a neighbour of the parent
            copy &= columns[other] == 1
        columns.append(np.where(copy, columns[parent], coin).astype(np.int8))
    return pd.DataFrame({f"x{j:02d}": c for j, c in enumerate(columns)})


def write_parquet(path: str, n_rows: int, n_vars: int, chunk_rows: int = 1_000_000) -> float:
    """Write the large data to one Parquet file, a row group per chunk; returns seconds."""
    import pyarrow as pa
    import pyarrow.parquet as pq

    t0 = time.perf_counter()
    writer = None
    for index, start in enumerate(range(0, n_rows, chunk_rows)):
        table = pa.Table.from_pandas(chunk(min(chunk_rows, n_rows - start), n_vars, index), preserve_index=False)
        writer = writer or pq.ParquetWriter(path, table.schema)
        writer.write_table(table, row_group_size=chunk_rows)
    writer.close()
    return time.perf_counter() - t0


def _fit_summary(est) -> dict:
    sg = est.model_
    return {"best_score": est.best_score_, "edges": sorted(map(sorted, sg.edges())),
            "strata": sorted((sorted(e), sorted(map(str, c))) for e, c in sg.strata.items())}


def run_pool_step(step: str, path: str, n_rows: int, n_iter: int) -> dict:
    """One step of the large-data benchmark, in this process."""
    import pandas as pd

    from pgmpy_sgm.causal_discovery import NonReversibleMCMC

    out: dict = {"step": step}
    fit = dict(n_iter=n_iter, n_chains=1, seed=0, show_progress=False)
    if step == "pool-dask":
        import dask.dataframe as dd
        from distributed import Client, LocalCluster

        from pgmpy_sgm.core.pooling import pool_data

        with LocalCluster(n_workers=2, threads_per_worker=1, dashboard_address=None, memory_limit="3GB") as cluster, \
                Client(cluster) as client:
            data = dd.read_parquet(path, split_row_groups=True)
            out["partitions"] = data.npartitions
            t0 = time.perf_counter()
            client.run(_import_pooling)  # the workers' one-time imports, timed apart from the pooling
            out["worker_import_s"] = time.perf_counter() - t0
            t0 = time.perf_counter()
            frame, counts = pool_data(data)
            out["pool_s"] = time.perf_counter() - t0
            out["pool_s_per_1e7_rows"] = out["pool_s"] / (n_rows / 1e7)
            out["distinct_rows"] = len(frame)
            out["observations"] = float(counts.sum())
            workers = client.run(_peak_mb)
            out["worker_peak_rss_mb"] = sorted(workers.values())
        t0 = time.perf_counter()
        est = NonReversibleMCMC(weights=counts, **fit).fit(frame)
        out["mcmc_s"] = time.perf_counter() - t0
        out.update(_fit_summary(est))
    elif step == "pool-cli":
        import contextlib
        import io

        from pgmpy_sgm.cli import main, read_data

        t0 = time.perf_counter()
        frame, _, _ = read_data(path, None)
        out["read_s"] = time.perf_counter() - t0
        out["read_s_per_1e7_rows"] = out["read_s"] / (n_rows / 1e7)
        out["distinct_rows"] = len(frame)
        del frame
        t0 = time.perf_counter()
        report = io.StringIO()
        with contextlib.redirect_stdout(report):
            status = main(["learn", path, "--no-strata", "--quiet", "--iterations", str(n_iter), "--chains", "1"])
        out["cli_s"] = time.perf_counter() - t0
        out["cli_status"] = status
        out["cli_report"] = [line for line in report.getvalue().splitlines() if "log unnormalized" in line]
    elif step == "check":
        import dask.dataframe as dd
        import pyarrow.parquet as pq
        from distributed import Client, LocalCluster

        from pgmpy_sgm.cli import read_data

        first = pq.ParquetFile(path).read_row_group(0).to_pandas()
        small = os.path.join(os.path.dirname(path), "first.parquet")
        first.to_parquet(small, row_group_size=100_000)
        out["rows"] = len(first)
        memory = _fit_summary(NonReversibleMCMC(**fit).fit(first))
        with LocalCluster(n_workers=2, threads_per_worker=1, dashboard_address=None) as cluster, Client(cluster):
            distributed = _fit_summary(NonReversibleMCMC(**fit).fit(dd.read_parquet(small, split_row_groups=True)))
        frame, weights, _ = read_data(small, None)
        chunked = _fit_summary(NonReversibleMCMC(weights=weights, **fit).fit(frame))
        out["in_memory"] = memory
        out["dask_equal"] = distributed == memory
        out["cli_reader_equal"] = chunked == memory
        del pd
    else:
        raise ValueError(f"Unknown step {step!r}")
    out["peak_rss_mb"] = _peak_mb()
    return out


def run_pool(n_rows: int, n_vars: int, n_iter: int, keep: str | None) -> int:
    """Generate the large data, run the three steps in fresh processes, delete the data."""
    import shutil
    import tempfile

    folder = keep or tempfile.mkdtemp(prefix="pgmpy_sgm_scale_")
    path = os.path.join(folder, f"rows_{n_rows}x{n_vars}.parquet")
    print(json.dumps({**_machine(), "loadavg": os.getloadavg()}))
    try:
        if not os.path.exists(path):
            seconds = write_parquet(path, n_rows, n_vars)
            print(json.dumps({"step": "generate", "seconds": round(seconds, 1),
                              "file_mb": round(os.path.getsize(path) / 2**20, 1)}))
        for step in ("check", "pool-dask", "pool-cli"):
            done = subprocess.run([sys.executable, __file__, "--pool-step", step, "--path", path, "--rows",
                                   str(n_rows), "--iterations", str(n_iter)], capture_output=True, text=True,
                                  check=False)
            if done.returncode != 0:
                print(done.stderr, file=sys.stderr)
                return done.returncode
            out = json.loads(done.stdout.strip().splitlines()[-1])
            print(json.dumps({**out, "loadavg": os.getloadavg()}))
    finally:
        if keep is None:
            shutil.rmtree(folder, ignore_errors=True)
    return 0


def _import_pooling() -> None:
    import pgmpy_sgm.core.pooling  # noqa: F401


def _peak_mb() -> float:
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    return peak / 2**20 if sys.platform == "darwin" else peak / 1024


def run_step(step: str, n_rows: int, n_vars: int, n_iter: int) -> dict:
    """Run one step in this process and return its figures."""
    import networkx as nx

    import pgmpy_sgm.causal_discovery  # noqa: F401 - imports are not part of any step's time
    import pgmpy_sgm.structure_score  # noqa: F401

    t0 = time.perf_counter()
    frame, edges = simulate(n_rows, n_vars)
    out = {"step": step, "simulate_s": time.perf_counter() - t0, "frame_mb": frame.memory_usage().sum() / 2**20}
    t0 = time.perf_counter()
    if step == "encode":
        from pgmpy_sgm.core.data import EncodedData

        enc = EncodedData(frame)
        out["distinct_rows"] = int(enc.codes.shape[0])
    elif step == "score":
        from pgmpy_sgm import SGMScore, StratifiedGraph

        scorer = SGMScore(frame)
        t1 = time.perf_counter()
        out["build_s"] = t1 - t0
        graph = nx.Graph(edges)
        assert nx.is_chordal(graph)  # each variable joins a clique of earlier ones
        scores = {
            "empty": scorer.score(StratifiedGraph(nodes=scorer.variables)),
            "chain": scorer.score(StratifiedGraph(graph)),
        }
        strata = scorer.optimal_strata(graph)
        scores["chain+strata"] = scorer.score(strata)
        out["graph_s"] = time.perf_counter() - t1
        out["scores"] = {k: round(v, 2) for k, v in scores.items()}
        out["n_labels"] = strata.n_labels()
    elif step == "mcmc":
        from pgmpy_sgm.causal_discovery import NonReversibleMCMC

        est = NonReversibleMCMC(n_iter=n_iter, n_chains=1, seed=0, show_progress=False).fit(frame)
        out["best_score"] = round(est.best_score_, 2)
        out["n_edges"] = est.model_.number_of_edges()
        out["acceptance_rate"] = round(est.acceptance_rate_, 3)
    elif step != "data":
        raise ValueError(f"Unknown step {step!r}")
    out["step_s"] = time.perf_counter() - t0
    out["peak_rss_mb"] = _peak_mb()
    return out


def _machine() -> dict:
    import networkx
    import numpy
    import pandas
    import pgmpy

    cpu = platform.processor() or "unknown"
    try:
        with open("/proc/cpuinfo", encoding="utf-8") as handle:
            cpu = next(line.split(":", 1)[1].strip() for line in handle if line.startswith("model name"))
    except (OSError, StopIteration):
        pass
    return {
        "nproc": os.cpu_count(),
        "cpu": cpu,
        "python": platform.python_version(),
        "numpy": numpy.__version__,
        "pandas": pandas.__version__,
        "networkx": networkx.__version__,
        "pgmpy": pgmpy.__version__,
        "date": time.strftime("%Y-%m-%d"),
    }


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rows", type=int, default=1_000_000)
    parser.add_argument("--variables", type=int, default=30)
    parser.add_argument("--iterations", type=int, default=1000)
    parser.add_argument("--pool", action="store_true",
                        help="data larger than memory: Parquet in chunks, pooled by Dask and by the CLI reader "
                             "(default --rows 100000000)")
    parser.add_argument("--keep", metavar="DIR", help="with --pool: write (or reuse) the data in DIR and keep them")
    parser.add_argument("--step", help=argparse.SUPPRESS)  # internal: run one step and print JSON
    parser.add_argument("--pool-step", help=argparse.SUPPRESS)
    parser.add_argument("--path", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.pool_step:
        print(json.dumps(run_pool_step(args.pool_step, args.path, args.rows, args.iterations)))
        return 0
    if args.pool:
        rows = 100_000_000 if "--rows" not in (argv if argv is not None else sys.argv) else args.rows
        return run_pool(rows, args.variables, args.iterations, args.keep)
    if args.step:
        print(json.dumps(run_step(args.step, args.rows, args.variables, args.iterations)))
        return 0
    print(json.dumps(_machine()))
    print(f"{args.rows:,} rows x {args.variables} binary variables, {args.iterations} MCMC iterations")
    results = []
    for step in ("data", "encode", "score", "mcmc"):
        t0 = time.perf_counter()
        done = subprocess.run([sys.executable, __file__, "--step", step, "--rows", str(args.rows), "--variables",
                               str(args.variables), "--iterations", str(args.iterations)],
                              capture_output=True, text=True, check=False)
        if done.returncode != 0:
            print(done.stderr, file=sys.stderr)
            return done.returncode
        out = json.loads(done.stdout.strip().splitlines()[-1])
        out["process_s"] = time.perf_counter() - t0
        results.append(out)
        print(json.dumps(out))
    peak = max(r["peak_rss_mb"] for r in results) / 1024
    print(f"peak RSS {peak:.2f} GB ({'within' if peak <= GOAL_GB else 'OVER'} the {GOAL_GB:.0f} GB goal)")
    return 0 if peak <= GOAL_GB else 1


if __name__ == "__main__":
    sys.exit(main())
