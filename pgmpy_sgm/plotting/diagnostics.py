"""Plots of a structure search: MCMC traces and posterior edge probabilities.

Each function takes either a fitted estimator (``NonReversibleMCMC``) or the array / table
itself, so results loaded from disk can be drawn too:

======================= ========================== ==========================================
function                estimator attribute        direct input
======================= ========================== ==========================================
plot_trace              ``trace_``                 array ``(n_chains, n_iter + 1)`` or ``(n,)``
plot_edge_probabilities ``edge_probabilities_``    square symmetric DataFrame, values in [0, 1]
plot_top_edges          ``edge_probabilities_``    the same
======================= ========================== ==========================================
"""

from __future__ import annotations

import numpy as np
import pandas as pd
from matplotlib.axes import Axes
from matplotlib.pyplot import subplots

__all__ = ["plot_trace", "plot_edge_probabilities", "plot_top_edges", "top_edges"]


def _from_estimator(obj, attribute: str, what: str):
    if hasattr(obj, attribute):
        return getattr(obj, attribute)
    if hasattr(obj, "fit"):
        raise ValueError(f"{type(obj).__name__} is not fitted (no {attribute}). Call fit first.")
    raise TypeError(f"Expected {what} or a fitted estimator with {attribute}. Got: {type(obj).__name__}")


def _new_axes(ax, figsize):
    if ax is None:
        return subplots(figsize=figsize)[1]
    if not isinstance(ax, Axes):
        raise TypeError(f"ax must be a matplotlib Axes. Got: {type(ax).__name__}")
    return ax


def _as_trace(trace_or_estimator) -> np.ndarray:
    trace = trace_or_estimator
    if not isinstance(trace, np.ndarray | list | tuple | pd.DataFrame | pd.Series):
        trace = _from_estimator(trace, "trace_", "an array of log posteriors")
    if isinstance(trace, pd.DataFrame | pd.Series):
        trace = trace.to_numpy()
    try:
        trace = np.asarray(trace)
    except ValueError as err:  # ragged nested lists
        raise ValueError(f"The trace must have shape (n_chains, n_iter + 1): chains of equal length. {err}") from None
    if trace.dtype.kind not in "biuf":
        raise TypeError(f"The trace must hold numbers (log posteriors). Got dtype: {trace.dtype}")
    trace = trace.astype(float)
    if trace.ndim == 1:
        trace = trace[np.newaxis, :]
    if trace.ndim != 2:
        raise ValueError(f"The trace must have shape (n_chains, n_iter + 1) or (n_iter + 1,). Got: {trace.shape}")
    if trace.size == 0:
        raise ValueError(f"The trace is empty. Got shape: {trace.shape}")
    if np.isnan(trace).any() or np.isposinf(trace).any():
        raise ValueError("The trace contains NaN or +inf; expected log unnormalized posteriors.")
    return trace


def plot_trace(trace_or_estimator, ax: Axes | None = None, best_score: float | None = None, zoom: bool = True) -> Axes:
    """Plot the log unnormalized posterior of the current state per iteration, one line per chain.

    Parameters
    ----------
    trace_or_estimator : array-like or fitted estimator
        An array of shape ``(n_chains, n_iter + 1)`` (a 1-D array is one chain), or an estimator
        with ``trace_``. With an estimator, its ``best_score_`` is drawn as a dashed line.
    ax : matplotlib.axes.Axes, optional
        Where to draw; a new figure is made when omitted.
    best_score : float, optional
        Draw this value as a dashed horizontal line (overrides the estimator's ``best_score_``).
    zoom : bool, default=True
        Start the y axis at the 2% quantile of the trace, so that a steep burn-in does not
        flatten the rest; ``False`` shows the whole range.

    Returns
    -------
    matplotlib.axes.Axes
        Chains are the Line2D artists with labels ``"chain 1"``, ``"chain 2"``, ...

    Raises
    ------
    TypeError
        If the input is neither numeric nor an estimator.
    ValueError
        If the array is empty, has more than two dimensions, or holds NaN/+inf; or the estimator
        is not fitted.

    Examples
    --------
    >>> import matplotlib
    >>> matplotlib.use("Agg")
    >>> import numpy as np
    >>> trace = np.cumsum(np.random.default_rng(0).random((2, 50)), axis=1) - 6730
    >>> ax = plot_trace(trace)
    >>> [line.get_label() for line in ax.get_lines()]
    ['chain 1', 'chain 2']
    """
    trace = _as_trace(trace_or_estimator)
    if best_score is None and not isinstance(trace_or_estimator, np.ndarray | list | tuple):
        best_score = getattr(trace_or_estimator, "best_score_", None)
    ax = _new_axes(ax, (7.0, 4.0))
    iterations = np.arange(trace.shape[1])
    for i, chain in enumerate(trace):
        ax.plot(iterations, chain, drawstyle="steps-post", linewidth=1.2, alpha=0.85, label=f"chain {i + 1}")
    if best_score is not None:
        ax.axhline(float(best_score), color="black", linestyle="--", linewidth=1.0, label=f"best {best_score:.2f}")
    finite = trace[np.isfinite(trace)]
    if zoom and finite.size:
        # start the y axis after the burn-in transient so that the plateau is readable
        low = np.quantile(finite, 0.02)
        high = max(finite.max(), best_score if best_score is not None else -np.inf)
        margin = 0.05 * max(high - low, 1.0)
        ax.set_ylim(low - margin, high + margin)
    ax.set_xlabel("iteration")
    ax.set_ylabel("log unnormalized posterior")
    ax.set_title("MCMC trace")
    ax.grid(True, alpha=0.3)
    ax.legend(loc="lower right", fontsize="small", ncol=1 + trace.shape[0] // 6)
    return ax


def _as_edge_probabilities(obj, tol: float = 1e-9) -> pd.DataFrame:
    probs = obj
    if not isinstance(probs, pd.DataFrame):
        if isinstance(probs, np.ndarray | list | tuple):
            raise TypeError(
                "edge probabilities must be a pandas DataFrame with variable names as index and columns. "
                f"Got: {type(probs).__name__}; wrap it as pd.DataFrame(array, index=names, columns=names)."
            )
        probs = _from_estimator(probs, "edge_probabilities_", "a DataFrame of edge probabilities")
        if not isinstance(probs, pd.DataFrame):
            raise TypeError(f"edge_probabilities_ must be a DataFrame. Got: {type(probs).__name__}")
    if probs.shape[0] != probs.shape[1]:
        raise ValueError(f"edge probabilities must be a square table. Got shape: {probs.shape}")
    if probs.shape[0] < 2:
        raise ValueError(f"edge probabilities need at least two variables. Got shape: {probs.shape}")
    if not probs.index.is_unique or set(probs.index) != set(probs.columns) or not probs.columns.is_unique:
        raise ValueError(
            "edge probabilities must have the same variables as index and columns. "
            f"Got index {list(probs.index)} and columns {list(probs.columns)}"
        )
    probs = probs.loc[:, list(probs.index)]
    try:
        values = probs.to_numpy(dtype=float)
    except (TypeError, ValueError) as err:
        raise TypeError(f"edge probabilities must be numeric. Got: {err}") from None
    off = ~np.eye(len(values), dtype=bool)
    if not np.all(np.isfinite(values[off])) or values[off].min() < -tol or values[off].max() > 1 + tol:
        raise ValueError("edge probabilities must lie in [0, 1].")
    if not np.allclose(values, values.T, atol=1e-8):
        raise ValueError("edge probabilities must be symmetric (an undirected edge has one probability).")
    return pd.DataFrame(values, index=probs.index, columns=probs.columns)


def plot_edge_probabilities(
    edge_probabilities_or_estimator,
    ax: Axes | None = None,
    cmap: str = "Blues",
    annotate: bool | None = None,
) -> Axes:
    """Heatmap of the posterior probability of each edge, with variable names and a colorbar.

    Parameters
    ----------
    edge_probabilities_or_estimator : pandas.DataFrame or fitted estimator
        A square symmetric table with the same variables as index and columns (columns are
        reordered to match the index), or an estimator with ``edge_probabilities_``.
        The diagonal is not drawn.
    ax : matplotlib.axes.Axes, optional
        Where to draw; a new figure is made when omitted.
    cmap : str, default="Blues"
        Colormap, scaled to [0, 1].
    annotate : bool, optional
        Write the probability in each cell (default: when there are at most 12 variables).

    Returns
    -------
    matplotlib.axes.Axes
        Holding one AxesImage; tick labels are the variable names.

    Raises
    ------
    TypeError
        For a non-DataFrame input (e.g. a bare array) or non-numeric values.
    ValueError
        If the table is not square, its index and columns differ, values leave [0, 1], it is not
        symmetric, or the estimator is not fitted.

    Examples
    --------
    >>> import matplotlib
    >>> matplotlib.use("Agg")
    >>> import pandas as pd
    >>> names = ["a", "b", "c"]
    >>> probs = pd.DataFrame([[0, 0.9, 0.1], [0.9, 0, 0.5], [0.1, 0.5, 0]], index=names, columns=names)
    >>> ax = plot_edge_probabilities(probs)
    >>> [t.get_text() for t in ax.get_xticklabels()]
    ['a', 'b', 'c']
    """
    probs = _as_edge_probabilities(edge_probabilities_or_estimator)
    n = len(probs)
    ax = _new_axes(ax, (min(3.0 + 0.55 * n, 12.0) + 1.2, min(3.0 + 0.55 * n, 12.0)))
    values = probs.to_numpy().copy()
    np.fill_diagonal(values, np.nan)
    image = ax.imshow(np.ma.masked_invalid(values), cmap=cmap, vmin=0.0, vmax=1.0, interpolation="nearest")
    names = [str(v) for v in probs.index]
    ax.set_xticks(range(n), labels=names, rotation=45, ha="right", rotation_mode="anchor")
    ax.set_yticks(range(n), labels=names)
    ax.set_xticks(np.arange(n + 1) - 0.5, minor=True)
    ax.set_yticks(np.arange(n + 1) - 0.5, minor=True)
    ax.grid(which="minor", color="white", linewidth=1.5)
    ax.tick_params(which="minor", length=0)
    for spine in ax.spines.values():
        spine.set_visible(False)
    if annotate is None:
        annotate = n <= 12
    if annotate:
        for i in range(n):
            for j in range(n):
                if i != j:
                    p = values[i, j]
                    ax.text(
                        j, i, f"{p:.2f}", ha="center", va="center", fontsize=8, color="white" if p > 0.6 else "black"
                    )
    colorbar = ax.figure.colorbar(image, ax=ax, fraction=0.046, pad=0.04)
    colorbar.set_label("posterior edge probability")
    ax.set_title("Posterior edge probabilities")
    return ax


def top_edges(edge_probabilities_or_estimator, top: int = 10) -> pd.Series:
    """The ``top`` most probable edges, as a Series indexed by ``"u -- v"``, most probable first.

    Examples
    --------
    >>> import pandas as pd
    >>> names = ["a", "b", "c"]
    >>> probs = pd.DataFrame([[0, 0.9, 0.1], [0.9, 0, 0.5], [0.1, 0.5, 0]], index=names, columns=names)
    >>> top_edges(probs, top=2).to_dict()
    {'a -- b': 0.9, 'b -- c': 0.5}
    """
    if isinstance(top, bool) or not isinstance(top, int | np.integer) or top < 1:
        raise ValueError(f"top must be a positive integer. Got: {top!r}")
    probs = _as_edge_probabilities(edge_probabilities_or_estimator)
    names = list(probs.index)
    iu, ju = np.triu_indices(len(names), k=1)
    values = probs.to_numpy()[iu, ju]
    order = np.argsort(-values, kind="stable")[:top]
    return pd.Series(values[order], index=[f"{names[iu[k]]} -- {names[ju[k]]}" for k in order], name="edge probability")


def plot_top_edges(edge_probabilities_or_estimator, ax: Axes | None = None, top: int = 10) -> Axes:
    """Horizontal bar chart of the ``top`` most probable edges.

    Examples
    --------
    >>> import matplotlib
    >>> matplotlib.use("Agg")
    >>> import pandas as pd
    >>> names = ["a", "b", "c"]
    >>> probs = pd.DataFrame([[0, 0.9, 0.1], [0.9, 0, 0.5], [0.1, 0.5, 0]], index=names, columns=names)
    >>> ax = plot_top_edges(probs, top=2)
    >>> [t.get_text() for t in ax.get_yticklabels()]
    ['a -- b', 'b -- c']
    """
    series = top_edges(edge_probabilities_or_estimator, top=top)
    ax = _new_axes(ax, (6.5, 0.8 + 0.35 * len(series)))
    y = np.arange(len(series))
    bars = ax.barh(y, series.to_numpy(), color="tab:blue")
    ax.set_yticks(y, labels=list(series.index))
    ax.invert_yaxis()
    ax.set_xlim(0, 1.08)
    ax.bar_label(bars, labels=[f"{p:.2f}" for p in series], padding=3, fontsize=8)
    ax.set_xlabel("posterior edge probability")
    ax.set_title(f"Top {len(series)} edges")
    ax.grid(True, axis="x", alpha=0.3)
    return ax
