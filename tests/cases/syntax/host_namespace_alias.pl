# The host-code splitter follows the names pypto.language is imported under, as lowering
# binds them: a decorator or a constant rooted at such an alias is pl code, not host code.
import pypto.language as p
from pypto import language as lang
import pypto.language.distributed as dist

ROWS = 32
ELEM = p.FP16
WIDTH = lang.FP32.get_byte() * 16
OP = dist.ReduceOp.Sum
SCALE = settings()


@p.program
class Doubler:
    @p.function
    def run(self, a: p.Tensor[[ROWS], ELEM]) -> p.Tensor[[ROWS], ELEM]:
        b: p.Tensor[[ROWS], ELEM] = p.add(a, a)
        return b


@lang.jit
def entry(a: lang.Tensor[[ROWS], lang.FP16]) -> lang.Tensor[[ROWS], lang.FP16]:
    return a


@other.decorator
def helper():
    return 0
