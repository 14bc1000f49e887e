"""Bundled and simulated data sets."""

from pgmpy_sgm.datasets.heart_disease import HEART_DISEASE_VARIABLES, load_heart_disease
from pgmpy_sgm.datasets.student_survey import STUDENT_SURVEY_VARIABLES, load_student_survey
from pgmpy_sgm.datasets.synthetic import PAPER_SYNTHETIC_STRATA, paper_synthetic_graph, simulate_paper_synthetic

__all__ = [
    "load_heart_disease",
    "HEART_DISEASE_VARIABLES",
    "load_student_survey",
    "STUDENT_SURVEY_VARIABLES",
    "simulate_paper_synthetic",
    "paper_synthetic_graph",
    "PAPER_SYNTHETIC_STRATA",
]
