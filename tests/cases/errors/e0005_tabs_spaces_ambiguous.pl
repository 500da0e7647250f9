# E0005: lines whose indentation means one thing with 8-column tabs and another with
# 1-column tabs: a dedent to a tab, and a tab followed by spaces.
import pypto.language as pl


@pl.jit
def f(x: pl.Tensor, n: pl.INDEX):
    if n > 0:
        a = 1
	b = 2
    return x


@pl.jit
def g(x: pl.Tensor, n: pl.INDEX):
	if n > 0:
		a = 1
	        b = 2
	return x
