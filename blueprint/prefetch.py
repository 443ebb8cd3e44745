"""A cache prefetch hint for compiled kernels: ``prefetch_row(table, row)``.

MCCFR on a hold'em tree reads rows of multi-megabyte tables at places only the next deal
decides. A kernel that knows the next deal can ask the processor to start loading those rows
while it still works on the current one (LLVM's ``llvm.prefetch``: a read with high temporal
locality into the data cache). A prefetch is only a hint: it never changes a result, it
cannot fault, and a kernel that calls it computes exactly what it would without it.

>>> import numpy as np
>>> from numba import njit
>>> @njit
... def first_of(table, row):
...     prefetch_row(table, row)
...     return table[row, 0]
>>> float(first_of(np.arange(6.0).reshape(3, 2), 2))
4.0
"""

from __future__ import annotations

from llvmlite import ir
from numba import types
from numba.core import cgutils
from numba.extending import intrinsic

_BYTE_POINTER = ir.IntType(8).as_pointer()
_INT32 = ir.IntType(32)
_NAME = "llvm.prefetch.p0" if getattr(_BYTE_POINTER, "is_opaque", False) else "llvm.prefetch.p0i8"
_SIGNATURE = ir.FunctionType(ir.VoidType(), [_BYTE_POINTER, _INT32, _INT32, _INT32])


@intrinsic
def prefetch_row(typingctx, table, row):
    """Hint that ``table[row, 0]`` (a 2-D array) will be read soon."""
    signature = types.void(table, row)

    def codegen(context, builder, sig, args):
        array_type = sig.args[0]
        array = context.make_array(array_type)(context, builder, args[0])
        index = context.cast(builder, args[1], sig.args[1], types.intp)
        zero = context.get_constant(types.intp, 0)
        pointer = cgutils.get_item_pointer(context, builder, array_type, array, [index, zero])
        function = cgutils.get_or_insert_function(builder.module, _SIGNATURE, _NAME)
        read, keep_in_all_levels, data_cache = _INT32(0), _INT32(3), _INT32(1)
        builder.call(
            function,
            [builder.bitcast(pointer, _BYTE_POINTER), read, keep_in_all_levels, data_cache],
        )
        return context.get_dummy_value()

    return signature, codegen
