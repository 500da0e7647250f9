# Indentation with tabs only, used consistently: allowed.
import pypto.language as pl


@pl.jit
def tabs(x: pl.Tensor, n: pl.INDEX):
	for i in pl.range(2):
		if i > n:
			n = i
		else:
			pass
	return x
