# Blank lines, lines of spaces and comment-only lines at any column, inside and
# between blocks: none of them opens or closes a block.
import pypto.language as pl

   
	
@pl.jit
def f(x: pl.Tensor, n: pl.INDEX):

        # a comment deeper than the block
    a = 1
  # a comment shallower than the block
      
    if n > 0:
# a comment at column 1

        b = 2
            # deeper again
    
    # back at the block column
    return x
    # a comment after the last statement

        
# trailing comment
   
