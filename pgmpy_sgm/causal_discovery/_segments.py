"""Segments of the chains of one fit: run in the calling process or in parallel, with a progress bar.

A *segment* is a call of :func:`~pgmpy_sgm.causal_discovery._chain.run_segment` for each chain
that still runs; the chains meet after every segment (to share clique labellings, merge their
results and write a checkpoint). Where segments end does not change any chain's path.
"""

from __future__ import annotations

import functools
import time
from dataclasses import replace

import joblib
import numpy as np
from tqdm.auto import tqdm

from pgmpy_sgm.causal_discovery._chain import ChainData, ChainState, SearchPlan, SegmentResult, run_segment
from pgmpy_sgm.causal_discovery._run_state import RunState

__all__ = ["check_backend", "ChainProgress", "progress_text", "remaining", "sequential_segments", "parallel_segments",
           "segment_steps", "adapted_chunk", "merge_segments"]

#: Target duration of a segment of parallel chains run without a checkpoint.
SEGMENT_SECONDS = 2.0

def check_backend(backend) -> str | None:
    """``backend`` if it names a joblib backend (or is None), else a one-line error naming it.

    Examples
    --------
    >>> check_backend("loky"), check_backend(None)
    ('loky', None)
    >>> check_backend("foo")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
        ...
    ValueError: backend must be one of ['dask', 'loky', ...] or None. Got: 'foo'
    """
    if backend is None:
        return None
    if not isinstance(backend, str):
        raise TypeError(f"backend must be a joblib backend name or None. Got: {backend!r}")
    names = sorted({*joblib.parallel.BACKENDS, *joblib.parallel.EXTERNAL_BACKENDS})
    if backend not in names:
        raise ValueError(f"backend must be one of {names} or None. Got: {backend!r}")
    return backend


def remaining(state: ChainState, n_iter: int | None) -> int:
    """Iterations a chain has left (``n_iter=None``: no limit but time).

    Examples
    --------
    >>> state = ChainState(0, 40, 0, None, {}, None, 0, None, 0)
    >>> remaining(state, 100), remaining(state, None) > 10**18
    (60, True)
    """
    return (2**62 if n_iter is None else n_iter) - state.iteration


def progress_text(chain_best: list[float], age_seconds: float, age_iterations: int, rate: float) -> str:
    """The progress bar's postfix: the best score, its age, the chains' spread and the acceptance rate.

    ``best`` is the best score any chain has found so far; its age is the time and the
    iterations (summed over chains) since it was found; ``spread`` is the best minus the
    worst chain best (chains not started yet left out), the quantity the
    :class:`~pgmpy_sgm.causal_discovery.ConvergenceWarning` watches; up to four chains'
    bests are listed; ``accept`` is the last reported chain's acceptance rate.

    Examples
    --------
    >>> progress_text([-100.0, -102.5], 12.3, 4096, 0.0412)
    'best=-100.00 (12 s, 4096 it ago) spread=2.50 chains=[-100.0 -102.5] accept=0.041'
    """
    started = [b for b in chain_best if np.isfinite(b)]
    spread = max(started) - min(started) if started else 0.0
    text = f"best={max(chain_best):.2f} ({age_seconds:.0f} s, {age_iterations} it ago) spread={spread:.2f}"
    if len(chain_best) <= 4:
        text += " chains=[" + " ".join(f"{b:.1f}" for b in chain_best) + "]"
    return text + f" accept={rate:.3f}"


class ChainProgress:
    """A progress bar over the iterations of all chains; its postfix is :func:`progress_text`.

    Examples
    --------
    >>> chains = [ChainState(c, 0, 0, None, {}, None, 0, None, 0) for c in range(2)]
    >>> bar = ChainProgress(chains, n_iter=100, desc="demo", disable=True)
    >>> bar.update(1, 50, -10.0, 0.5)
    >>> bar.update(0, 30, -12.0, 0.4)
    >>> bar.chain_best, bar.best, bar.iterations, bar.age_iterations
    ([-12.0, -10.0], -10.0, 80, 30)
    >>> bar.postfix().split(" spread=")[1]
    '2.00 chains=[-12.0 -10.0] accept=0.400'
    >>> bar.jump(-9.0)  # every chain moved to a better graph (the settling check)
    >>> bar.chain_best, bar.age_iterations
    ([-9.0, -9.0], 0)
    >>> bar.close()
    """

    def __init__(self, chains: list[ChainState], n_iter: int | None, desc: str, disable: bool = False):
        done = sum(state.iteration for state in chains)
        total = None if n_iter is None else len(chains) * n_iter
        self.bar = tqdm(total=total, initial=done, desc=desc, disable=disable)
        self.chain_best = [s.best_score if s.best_score is not None else -np.inf for s in chains]
        self.best = max(self.chain_best)
        self.iterations = done
        self.improved_at = (time.monotonic(), done)
        self.rate = 0.0

    @property
    def age_iterations(self) -> int:
        """Iterations (summed over chains) since the best score last improved."""
        return self.iterations - self.improved_at[1]

    def postfix(self) -> str:
        """The text shown after the bar (:func:`progress_text`)."""
        age = time.monotonic() - self.improved_at[0]
        return progress_text(self.chain_best, age, self.age_iterations, self.rate)

    def update(self, chain: int, steps: int, best_score: float, rate: float) -> None:
        """``steps`` more iterations of ``chain``, whose best score is now ``best_score``."""
        self.chain_best[chain] = max(self.chain_best[chain], best_score)
        self.iterations += steps
        self.rate = rate
        self._note_best()
        self.bar.update(steps)
        self.bar.set_postfix_str(self.postfix(), refresh=False)

    def jump(self, best_score: float) -> None:
        """Every chain moved to a graph scoring ``best_score``, their new best."""
        self.chain_best = [max(b, best_score) for b in self.chain_best]
        self._note_best()
        self.bar.set_postfix_str(self.postfix(), refresh=True)

    def _note_best(self) -> None:
        if max(self.chain_best) > self.best:
            self.best = max(self.chain_best)
            self.improved_at = (time.monotonic(), self.iterations)

    def close(self) -> None:
        """Close the bar."""
        self.bar.close()


def sequential_segments(data: ChainData, todo: list[ChainState], steps: list[int], plan: SearchPlan,
                        progress: ChainProgress | None, stop_seconds: float | None) -> list[SegmentResult]:  # fmt: skip
    """One segment of each chain in ``todo``, one after the other in this process.

    With a deadline, each chain gets an equal share of the time left; ``stop_seconds`` (when
    checkpointing) ends each segment after that many seconds. Stops after a segment that was
    interrupted.
    """
    results = []
    for position, (state, n_steps) in enumerate(zip(todo, steps, strict=True)):
        chain_plan = plan
        if plan.deadline is not None:  # an equal share of what is left for each chain
            share = (plan.deadline - time.time()) / (len(todo) - position)
            chain_plan = replace(plan, deadline=time.time() + share)
        callback = None if progress is None else functools.partial(progress.update, state.chain)
        stop_at = None if stop_seconds is None else time.time() + stop_seconds
        results.append(run_segment(data, state, n_steps, chain_plan, callback, None, stop_at))
        if results[-1].interrupted:
            break
    return results


def parallel_segments(data: ChainData, todo: list[ChainState], steps: list[int], plan: SearchPlan, known: dict,
                      stop_seconds: float | None, n_jobs, backend: str | None) -> list[SegmentResult]:  # fmt: skip
    """One segment of each chain in ``todo``, in parallel with joblib.

    The backend is the one in effect (a ``joblib.parallel_config`` around the fit; loky by
    default), or ``backend`` when named. ``known`` holds the clique labellings learned by
    every chain in the previous segment.
    """
    stop_at = None if stop_seconds is None else time.time() + stop_seconds
    jobs = (
        joblib.delayed(run_segment)(data, s, k, plan, None, known, stop_at) for s, k in zip(todo, steps, strict=True)
    )
    if backend is None:
        return joblib.Parallel(n_jobs=n_jobs)(jobs)
    with joblib.parallel_config(backend=backend):
        return joblib.Parallel(n_jobs=n_jobs)(jobs)


def segment_steps(todo: list[ChainState], n_iter: int | None, chunk: int | None, aligned: bool) -> list[int]:
    """Iterations of each chain's next segment: what it has left, at most to the end of its ``chunk``.

    Segments of ``aligned`` chunks end at multiples of ``chunk`` (the checkpoint points).

    Examples
    --------
    >>> chains = [ChainState(0, 950, 0, None, {}, None, 0, None, 0), ChainState(1, 0, 0, None, {}, None, 0, None, 0)]
    >>> segment_steps(chains, 2000, 1000, aligned=True), segment_steps(chains, 2000, 1000, aligned=False)
    ([50, 1000], [1000, 1000])
    >>> segment_steps(chains, 1000, None, aligned=True)
    [50, 1000]
    """
    steps = []
    for state in todo:
        n_steps = remaining(state, n_iter)
        if chunk is not None:
            n_steps = min(n_steps, chunk - (state.iteration % chunk if aligned else 0))
        steps.append(n_steps)
    return steps


def adapted_chunk(every: int, seconds: float, results: list, todo: list[ChainState]) -> int:
    """Iterations of about ``SEGMENT_SECONDS`` of work, at the pace of the segment just run (at least ``every``)."""
    done_steps = max(max(out.state.iteration - s.iteration for out, s in zip(results, todo, strict=True)), 1)
    return max(every, int(SEGMENT_SECONDS / max(seconds / done_steps, 1e-9)))


def merge_segments(data: ChainData, run: RunState, results: list, bar: ChainProgress | None) -> tuple[dict, bool]:
    """Merge the segments' results into ``run``; returns the labellings they learned and whether one was interrupted."""
    known: dict = {}  # labellings learned in this segment, passed on to every chain's next segment
    interrupted = False
    for out in results:
        known.update(out.learned)
        data.engine.absorb(out.learned)
        state = out.state
        before = run.chains[state.chain].iteration
        run.merge(out)
        interrupted |= out.interrupted
        if bar is not None:
            rate = state.n_accepted / max(state.iteration, 1)
            bar.update(state.chain, state.iteration - before, state.best_score, rate)
    return known, interrupted
