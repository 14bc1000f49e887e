"""Reading data files; reading and writing stratified graphs, models, labelled DAGs and contextual Markov networks
(JSON; BIF/XMLBIF through pgmpy)."""

from pgmpy_sgm.readwrite.cmn_json import cmn_from_json_dict, cmn_to_json_dict, read_cmn_json, write_cmn_json
from pgmpy_sgm.readwrite.data_file import CountsLikeColumnWarning, DataFileError, read_data_file
from pgmpy_sgm.readwrite.json_io import from_json_dict, read_json, to_json_dict, write_bif, write_json, write_xmlbif
from pgmpy_sgm.readwrite.ldag_json import ldag_from_json_dict, ldag_to_json_dict, read_ldag_json, write_ldag_json

__all__ = [
    "write_json",
    "read_json",
    "to_json_dict",
    "from_json_dict",
    "write_bif",
    "write_xmlbif",
    "write_ldag_json",
    "read_ldag_json",
    "ldag_to_json_dict",
    "ldag_from_json_dict",
    "write_cmn_json",
    "read_cmn_json",
    "cmn_to_json_dict",
    "cmn_from_json_dict",
    "read_data_file",
    "DataFileError",
    "CountsLikeColumnWarning",
]
