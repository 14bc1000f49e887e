"""Junction-tree propagation of scaled probabilities against log space, in one process.

Run: ``python benchmarks/bench_propagation.py [--repeats 5]``

``Propagation`` (the messages that cyclical projection and the edge additions of ``MPLSearch`` use on networks
beyond ``DENSE_JOINT_CELLS`` joint states) now keeps potentials and messages as tables scaled to a largest cell
of 1 with their log scales; the baseline is the log-space version of the code before, reproduced below
(``LogSpacePropagation``: every message a ``logsumexp``). For networks that ``MPLSearch`` fits (the graph it learns
on grid-20 and grid-100 data as ``bench_mpl.py`` makes them, on alarm and insurance at n = 2,000), in one process:
cyclical projection of the graph on its data from zero (tolerance 1e-4 as stage 2 fits, 100 sweeps at most) with
each class, and the fitted network's marginal of every edge. Printed: median milliseconds of each, the ratio, the
sweeps, and the largest differences of ``log Z`` and of the edge marginals.
"""

from __future__ import annotations

import argparse
import math
import os
import platform
import sys
import time
from pathlib import Path

import numpy as np

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
import _cmn_data  # noqa: E402
from predictive import as_categories, load_network, network_states  # noqa: E402

import pgmpy_sgm.models._cmn_parameters as parameters  # noqa: E402
from pgmpy_sgm.causal_discovery import MPLSearch  # noqa: E402
from pgmpy_sgm.models._cmn_inference import JunctionTreeEngine, _logsumexp, _total, align  # noqa: E402

SCALED = parameters.propagation_for


class LogSpacePropagation:
    """The baseline: the log-space propagation of the code before (messages by ``logsumexp``)."""

    def __init__(self, engine: JunctionTreeEngine, factors):
        self.engine = engine
        self.tables = [np.zeros([engine.cards[v] for v in c]) for c in engine.cliques]
        self.neighbours = engine.neighbours
        self.messages: dict = {}
        for scope, log_table in factors:
            self.add(scope, log_table)

    def add(self, scope, log_table) -> None:
        engine = self.engine
        i = engine.home(scope)
        clique = engine.cliques[i]
        log_table = np.asarray(log_table, dtype=float)
        self.tables[i] = self.tables[i] + (log_table if tuple(scope) == clique else align(log_table, scope, clique))
        if self.messages:
            for key in engine.away(i):
                self.messages.pop(key, None)

    def _message(self, source: int, target: int) -> np.ndarray:
        found = self.messages.get((source, target))
        if found is not None:
            return found
        pending = [(source, target)]
        while pending:
            a, b = pending[-1]
            missing = [(c, a) for c in self.neighbours[a] if c != b and (c, a) not in self.messages]
            if missing:
                pending.extend(missing)
                continue
            pending.pop()
            table = self.tables[a] + _total(self.messages[(c, a)] for c in self.neighbours[a] if c != b)
            cliques = self.engine.cliques
            axes, permutation, shape = self.engine.layout(cliques[a], cliques[b])
            summed = _logsumexp(table, axes) if axes else table
            self.messages[(a, b)] = np.transpose(summed, permutation).reshape(shape)
        return self.messages[(source, target)]

    def belief(self, i: int) -> tuple[float, np.ndarray]:
        table = self.tables[i] + _total(self._message(c, i) for c in self.neighbours[i])
        log_z = float(_logsumexp(table, tuple(range(table.ndim))))
        return log_z, table - log_z

    def marginal(self, variables) -> np.ndarray:
        engine = self.engine
        i = engine.home(variables)
        _, belief = self.belief(i)
        axes, permutation, _ = engine.layout(engine.cliques[i], variables)
        summed = _logsumexp(belief, axes) if axes else belief
        return np.exp(np.transpose(summed, permutation))


def networks():
    for size, name in [((4, 5), "grid-20"), ((10, 10), "grid-100")]:
        model = _cmn_data.grid(*size, 0)
        states = {v: [0, 1] for v in sorted(model[0].nodes())}
        train = _cmn_data.sample(model, 2000, seed=0)[0]
        yield f"{name} n=2000", train, states
    for name in ("insurance", "alarm"):
        bn = load_network(name)
        states = network_states(bn)
        train = as_categories(bn.simulate(2000, seed=0, show_progress=False), states)
        yield f"{name} n=2000", train[sorted(train.columns)], states


def fitted(graph, score, scaled: bool):
    parameters.propagation_for = SCALED if scaled else LogSpacePropagation
    try:
        start = time.perf_counter()
        fit = parameters.cyclical_projection(graph, score.encoded.cardinality, {}, score.encoded.counts, 1.0, 1e-4, 100)
        fit_s = time.perf_counter() - start
    finally:
        parameters.propagation_for = SCALED
    propagation = (SCALED if scaled else LogSpacePropagation)(fit.engine, list(fit.log_potentials.items()))
    start = time.perf_counter()
    margins = [propagation.marginal(list(edge)) for edge in graph.edges()]
    return fit, fit_s, time.perf_counter() - start, margins


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--repeats", type=int, default=5)
    args = parser.parse_args()
    print(f"{platform.processor() or platform.machine()}, {os.cpu_count()} CPUs, load {os.getloadavg()[0]:.1f}, "
          f"Python {platform.python_version()}, numpy {np.__version__}")
    print("| network | edges | log-space fit ms | scaled fit ms | ratio | sweeps | log-space marginals ms | "
          "scaled marginals ms | ratio | largest log Z difference | largest marginal difference |")
    print("|---|---|---|---|---|---|---|---|---|---|---|")
    for label, train, states in networks():
        est = MPLSearch(seed=0, state_names=states, contexts=False).fit(train)
        graph, score = est.graph_, est.scorer_
        runs: dict = {True: [], False: []}
        for _ in range(args.repeats):
            for scaled in (False, True):
                runs[scaled].append(fitted(graph, score, scaled))
        old, new = runs[False][-1], runs[True][-1]
        fit_old = 1000 * np.median([r[1] for r in runs[False]])
        fit_new = 1000 * np.median([r[1] for r in runs[True]])
        marg_old = 1000 * np.median([r[2] for r in runs[False]])
        marg_new = 1000 * np.median([r[2] for r in runs[True]])
        log_z = abs(old[0].log_z - new[0].log_z)
        margin = max(float(np.abs(a - b).max()) for a, b in zip(old[3], new[3], strict=True))
        sweeps = f"{old[0].n_iter}/{new[0].n_iter}"
        print(f"| {label} | {graph.number_of_edges()} | {fit_old:.1f} | {fit_new:.1f} | {fit_old / fit_new:.2f}x | "
              f"{sweeps} | {marg_old:.1f} | {marg_new:.1f} | {marg_old / marg_new:.2f}x | {log_z:.1e} | "
              f"{margin:.1e} |", flush=True)
        assert math.isfinite(log_z)


if __name__ == "__main__":
    main()
