# The file ends with a comment line and no final newline.
import pypto.language as pl

X = 1
# last line is a comment