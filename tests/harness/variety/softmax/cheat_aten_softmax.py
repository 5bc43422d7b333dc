"""Returns the reference computed by the ATen kernel itself, called through torch.ops so that no
"softmax" attribute of torch or of the tensor is touched. The guard sees aten::_softmax at run time.

Expected verdict: rejected
Expected message: which this drill forbids
"""

import torch

_kernel = torch.ops.aten._softmax.default


def softmax(x):
    return _kernel(x, 1, False)
