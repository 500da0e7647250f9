# A UTF-8 byte order mark starts this file; it is skipped.
import pypto.language as pl

X = 1
