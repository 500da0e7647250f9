# Every import form; plc accepts them all and uses only `pypto.language as pl`.
import pypto.language as pl
import pypto.language.distributed as pld
import os, sys as system
import a.b.c
from pypto.runtime import RunConfig
from pypto import ir, passes as P
from . import sibling
from .config import HIDDEN
from ..kernels.mlp import mlp_block as mlp, gate
from ...deep import x
from .pkg import (
    first,
    second as two,
)
from math import *
