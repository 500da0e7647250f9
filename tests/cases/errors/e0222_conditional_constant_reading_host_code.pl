# A module constant given by a conditional expression folds when its parts are constants
# (TILE); one that reads host code (MODE reads `flag`, computed in Python) is host code, as
# a dict of non-constants is: noted, and an error only where pl code uses it.
import pypto.language as pl
import torch

flag = torch.cuda.is_available()
ROWS = 16
TILE = 16 if ROWS >= 16 else 8
MODE = 1 if flag else 2
UNUSED = 3 if flag else 4


@pl.function
def f(x: pl.Tensor[[TILE], pl.FP32]) -> pl.Tensor[[TILE], pl.FP32]:
    y = pl.mul(x, MODE)
    return y
