"""One BLAS thread for the solvers' small matrix products.

OpenBLAS starts a thread per core for every product. Our matrices are small (a Deep CFR
layer, a turn subgame's leaf values: 19 by 1,128 by 1,128), and on a loaded machine with
few cores those threads wait on each other, so a product runs many times slower than on one
thread. threadpoolctl (Pedregosa et al., the library scikit-learn uses) limits the threads
inside a block.

The process's BLAS libraries are looked up once, at the first block (a real-time solve opens
several); a library loaded after that is not limited.
"""

from __future__ import annotations

from contextlib import AbstractContextManager

from threadpoolctl import ThreadpoolController

_controller: ThreadpoolController | None = None


def one_blas_thread() -> AbstractContextManager:
    """A context running BLAS on one thread."""
    global _controller
    if _controller is None:
        _controller = ThreadpoolController()
    return _controller.limit(limits=1, user_api="blas")
