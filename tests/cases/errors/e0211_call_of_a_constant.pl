# E0211: a module constant is a value, not a function. PyPTO refuses the call as an
# unsupported function call; plc used to report nothing at the call and only a follow-on
# "may have no value" (E0420) at the name it assigned.
import pypto.language as pl

SCALE = 3.0


@pl.program
class Prog:
    @pl.function
    def main(self, x: pl.Tensor[[64], pl.FP32]) -> pl.Tensor[[64], pl.FP32]:
        y: pl.Tensor[[64], pl.FP32] = SCALE(x)
        return y
