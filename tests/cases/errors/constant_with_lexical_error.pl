# A module constant with a lexical error is reported once, not noted as host code.
import pypto.language as pl

NAME = "layer
ROWS = 128
