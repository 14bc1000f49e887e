"""Drawing stratified graphs, labelled DAGs and contextual Markov networks (matplotlib, Graphviz DOT) and plots of
structure searches."""

from pgmpy_sgm.plotting._save import save_figure
from pgmpy_sgm.plotting.contextual_markov_network import cmn_to_dot, plot_contextual_markov_network
from pgmpy_sgm.plotting.diagnostics import plot_edge_probabilities, plot_top_edges, plot_trace, top_edges
from pgmpy_sgm.plotting.dot import to_dot
from pgmpy_sgm.plotting.labeled_dag import plot_labeled_dag
from pgmpy_sgm.plotting.stratified_graph import artists_by_gid, graph_layout, plot_stratified_graph

__all__ = [
    "plot_stratified_graph",
    "graph_layout",
    "artists_by_gid",
    "to_dot",
    "plot_trace",
    "plot_edge_probabilities",
    "plot_top_edges",
    "top_edges",
    "save_figure",
    "plot_labeled_dag",
    "plot_contextual_markov_network",
    "cmn_to_dot",
]
