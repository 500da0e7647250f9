# A pl function defined inside host code (the main guard) is built by Python at run time:
# plc skips the host code with N0001 and names the function with N0002. A plain function
# that defines one directly is a program factory: parsed, and evaluated by lowering.
import pypto.language as pl


def make_kernel(rows):
    @pl.jit
    def scaled(x: pl.Tensor, y: pl.Out[pl.Tensor]):
        return y

    return scaled


if __name__ == "__main__":
    @pl.jit
    def entry(x: pl.Tensor):
        return x
