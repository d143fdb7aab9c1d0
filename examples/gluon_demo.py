"""`make demo`'s Python part: a Gluon GEMM's operand tile, costed and fixed.

The A operand of a Gluon GEMM on MI300X (gfx942): a 128 x 32 fp16 tile loaded
from global memory 8 halves per lane, stored to shared memory unswizzled, and
read back as operand 0 of a 2 x 2-warp 32x32x8 MFMA.  Prints both sides as
Triton 3.6 lowers them, the worst read lane by lane, and the shared layout the
C search suggests with the Gluon line to paste.  Needs no Triton: the layouts
are liblayout.gluon's stand-ins (Triton's own objects work the same way).
"""

import liblayout.gluon as lg
from liblayout.gluon import layouts as gl

mfma = gl.amd.AMDMFMALayout(version=3, instr_shape=[32, 32, 8], transposed=True, warps_per_cta=[2, 2])
a_dot = gl.DotOperandLayout(operand_index=0, parent=mfma, k_width=4)
a_load = gl.BlockedLayout([1, 8], [16, 4], [4, 1], [1, 0])
a_smem = gl.SwizzledSharedLayout(vec=1, per_phase=1, max_phase=1, order=[1, 0])

print("Gluon GEMM operand A, 128 x 32 fp16 on MI300X (gfx942), 4 warps:")
store = lg.check(a_load, a_smem, [128, 32], "fp16", "MI300X").store
load = lg.check(a_dot, a_smem, [128, 32], "fp16", "MI300X").load
print("  store (BlockedLayout -> smem):      " + store.cost_text())
print("  load  (smem -> DotOperandLayout):   " + load.cost_text())
print("  the worst read, lane by lane:")
print("    " + load.explain().replace("\n", "\n    "))
best = lg.suggest([a_load], [a_dot], [128, 32], "fp16", "MI300X")[0]
print("  suggested (%d bytes): %s" % (best.bytes, best.attr))
print("    store: " + best.store.cost_text())
print("    load:  " + best.load.cost_text())
print("  paste into the kernel:")
print("    a_smem: gl.constexpr = " + best.source)
