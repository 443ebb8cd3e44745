"""One BLAS thread for the solvers' small matrix products.

OpenBLAS starts a thread per core for every product. Our matrices are small (a Deep CFR
layer, a turn subgame's leaf values: 19 by 1,128 by 1,128), and on a loaded 2-core machine
those threads wait on each other: one Leduc iteration ran 10 to 50 times slower, a turn
solve's leaf product 31 ms instead of 2.9 (``bench``-style timing in the README). threadpoolctl
(Pedregosa et al., the library scikit-learn uses) limits the threads inside a block.

The process's BLAS libraries are looked up once, at the first block (0.4 ms a lookup, three
blocks a real-time solve); a library loaded after that is not limited.
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
