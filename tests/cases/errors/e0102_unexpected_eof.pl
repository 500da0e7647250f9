# E0102: the file ends where a definition must follow a decorator.
import pypto.language as pl


@pl.jit
