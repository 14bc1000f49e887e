"""Reading and writing stratified graphs and models (JSON; BIF/XMLBIF export through pgmpy)."""

from pgmpy_sgm.readwrite.json_io import from_json_dict, read_json, to_json_dict, write_bif, write_json, write_xmlbif

__all__ = ["write_json", "read_json", "to_json_dict", "from_json_dict", "write_bif", "write_xmlbif"]
