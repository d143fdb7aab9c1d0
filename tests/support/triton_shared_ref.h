/* Reference element offsets of Triton's #ttg.amd_rotating_shared and
 * #ttg.nvmma_shared, written as closed forms straight from Triton 3.6's
 * formulas (independently of lib/dialect/triton_shared.c, which assembles
 * the linear layout's bases bit by bit and lets the library invert it).
 *
 * Source: lib/Dialect/TritonGPU/IR/LinearLayoutConversions.cpp of the
 * Triton 3.5 / 3.6 line (public source index):
 *
 * amd_rotating_shared (sharedToLinearLayoutAMDRotating): the swizzled
 * layout whose phase is `phase ^ blockNo`, phase = (row / perPhase) %
 * maxPhase, blockNo = row / maxPhase / perPhase % maxPhase.  With
 * C = shape[order[0]] columns, element (row, col) sits at
 *     row * C + (col ^ ((vec * (phase(row) ^ blockNo(row))) % C)).
 *
 * nvmma_shared (nvmmaSharedToLinearLayout, getCoreMatrixLinearLayout;
 * getTMABlockShape in lib/Dialect/TritonNvidiaGPU/Transforms/TMAUtilities.cpp;
 * Dialect.cpp NVMMASharedEncodingAttr::getVec / getPerPhase / getMaxPhase):
 * S = swizzlingByteWidth, b = elementBitWidth.  S = 0: row-major inside
 * the TMA box min(size, 256) per dim, boxes laid out dim1 first, then dim0.
 * S > 0: the contiguous dim (dim1; dim0 when transposed) is cut into
 * column blocks of W = 8*S/b elements; inside a block, rows of the strided
 * dim follow each other (W elements each) and the 16-byte group of column
 * c in row r is xor-ed with (r % 8) / (128/S), i.e. column
 * c ^ ((128/b) * ((r % 8) / (128/S))); rows beyond 256 (the TMA box) come
 * next for the strided dim0 (not transposed), the column blocks next for
 * the contiguous dim0 (transposed): Triton grows dim0 before dim1. */
#ifndef LAYOUT_TEST_TRITON_SHARED_REF_H
#define LAYOUT_TEST_TRITON_SHARED_REF_H

#include <stdint.h>

/* amd_rotating_shared: element (d0, d1) of shape [shape0, shape1]; col_dim = order[0]. */
static inline int64_t ref_rotating_offset(int64_t vec, int64_t per_phase, int64_t max_phase, int col_dim,
                                          const int64_t shape[2], int64_t d0, int64_t d1)
{
    int64_t row = col_dim == 1 ? d0 : d1, col = col_dim == 1 ? d1 : d0, cols = shape[col_dim];
    int64_t phase = (row / per_phase) % max_phase;
    int64_t block = (row / (max_phase * per_phase)) % max_phase;
    return row * cols + (col ^ ((vec * (phase ^ block)) % cols));
}

/* nvmma_shared: element (d0, d1) of shape [shape0, shape1]. */
static inline int64_t ref_nvmma_offset(int swizzle_bytes, int transposed, int elem_bits, const int64_t shape[2],
                                       int64_t d0, int64_t d1)
{
    if (swizzle_bytes == 0) {
        int64_t rb = shape[0] < 256 ? shape[0] : 256, cb = shape[1] < 256 ? shape[1] : 256;
        return d1 % cb + cb * (d0 % rb + rb * (d1 / cb + (shape[1] / cb) * (d0 / rb)));
    } else {
        int contig = transposed ? 0 : 1;
        int64_t c = contig ? d1 : d0, r = contig ? d0 : d1;
        int64_t rows = contig ? shape[0] : shape[1], cols = contig ? shape[1] : shape[0];
        int64_t width = 8 * (int64_t)swizzle_bytes / elem_bits, vec = 128 / elem_bits, per_phase = 128 / swizzle_bytes;
        int64_t box = rows < 256 ? rows : 256;
        int64_t in_block = (c % width) ^ (vec * ((r % 8) / per_phase));
        int64_t block = c / width, r_lo = r % box, r_hi = r / box;
        if (!transposed) return in_block + width * (r_lo + box * (r_hi + (rows / box) * block));
        return in_block + width * (r_lo + box * (block + (cols / width) * r_hi));
    }
}

#endif
