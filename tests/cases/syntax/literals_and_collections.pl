# Numbers, constants, tuples, lists and dicts, with and without trailing commas.
import pypto.language as pl

DEC = 1_024
HEX = 0xFF
OCT = 0o17
BIN = 0b1010
FLT = 3.25
EXP = 1e-6
EXP2 = 2.5E+3
LEAD = .5
TRAIL = 5.
ZERO = 0
YES = True
NO = False
NOTHING = None
EMPTY_TUPLE = ()
ONE_TUPLE = (1,)
PAIR = (1, 2)
PAIR_TRAIL = (1, 2,)
BARE_PAIR = 3, 4
EMPTY_LIST = []
ONE_LIST = [1]
LIST_TRAIL = [1, 2, 3,]
NESTED = [[64, 128], (2, [3, 4]), []]
SHAPE = [DEC // 8, HEX + 1]


@pl.jit
def literals(x: pl.Tensor):
    pl.func_attr({"tile": 64, "name": "literals",})
    d = {}
    e = {"a": 1, "b": [1, 2], "c": (3,)}
    f = pl.create_tensor([64, 64], dtype=pl.FP32, init_value=-0.0)
    return f


@pl.function(type=pl.FunctionType.AIV)
def stub(x: pl.Tensor[[16], pl.FP16]) -> pl.Tensor[[16], pl.FP16]: ...
