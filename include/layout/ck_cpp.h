/**
 * @file ck_cpp.h
 * @brief ck_tile C++ for a descriptor: the maker calls that build the same
 *        descriptor in ck_tile.
 *
 * layout_desc_to_ck_cpp() spells the descriptor's text form (text.h) in
 * ck_tile's own makers, one statement per stage:
 *
 * | text form | ck_tile C++ |
 * |---|---|
 * | `naive([l..],[s..],gvl=V,gvs=S)` | `make_naive_tensor_descriptor(make_tuple(..), make_tuple(..), number<V>{}, number<S>{})` |
 * | `naive_off([l..],[s..],off=O)` | `make_naive_tensor_descriptor_with_offset(make_tuple(..), make_tuple(..), number<O>{})` |
 * | `packed([l..],gvl=V)` | `make_naive_tensor_descriptor_packed(make_tuple(..), number<V>{})` |
 * | `T{t:[lo]->[up] ; ..}` | `transform_tensor_descriptor(prev, make_tuple(t..), make_tuple(sequence<lo>{}..), make_tuple(sequence<up>{}..))` |
 * | `pass(L)` | `make_pass_through_transform(number<L>{})` |
 * | `pad(L,l,r)` / `lpad(L,l)` / `rpad(L,r)` | `make_pad_transform(..)` / `make_left_pad_transform(..)` / `make_right_pad_transform(..)` |
 * | `embed([u..],[c..])` | `make_embed_transform(make_tuple(..), make_tuple(..))` |
 * | `merge([l..])` / `merge3([l..])` | `make_merge_transform(make_tuple(..))` / `make_merge_transform_v3_division_mod(make_tuple(..))` |
 * | `unmerge([u..])` | `make_unmerge_transform(make_tuple(..))` |
 * | `xor([l0,l1])` | `make_xor_transform(make_tuple(number<l0>{}, number<l1>{}))` |
 * | `slice(L,b,e)`, `freeze(v)`, `insert(L)`, `replicate([u..])`, `modulo(m,L)`, `offset(L,o)` | `make_slice_transform`, `make_freeze_transform`, `make_insert_transform`, `make_replicate_transform`, `make_modulo_transform`, `make_offset_transform` with the same arguments |
 *
 * Every value is a compile-time `number<N>{}` (`long_number<N>{}` beyond
 * int32, ck_tile's index_t); empty id lists are `sequence<>{}`.  Signatures
 * follow ROCm/composable_kernel include/ck_tile/core (tensor_descriptor.hpp,
 * coordinate_transform.hpp: make_xor_transform takes the two lengths only).
 * Example (seed kernel 08, 32 banks):
 * @code
 *   // liblayout: naive([8,32,8],[8,64,1],gvl=8,gvs=1) | T{xor([32,8]):[1,0]->[1,0] ; ...
 *   constexpr auto desc_0 = make_naive_tensor_descriptor(
 *       make_tuple(number<8>{}, number<32>{}, number<8>{}),
 *       make_tuple(number<8>{}, number<64>{}, number<1>{}),
 *       number<8>{}, number<1>{});
 *   constexpr auto desc_1 = transform_tensor_descriptor(
 *       desc_0,
 *       make_tuple(make_xor_transform(make_tuple(number<32>{}, number<8>{})),
 *                  make_pass_through_transform(number<8>{})),
 *       make_tuple(sequence<1, 0>{}, sequence<2>{}),
 *       make_tuple(sequence<1, 0>{}, sequence<2>{}));
 *   ...
 *   constexpr auto lds_desc = desc_3;
 * @endcode
 * The snippet uses unqualified ck_tile names (write it inside
 * `namespace ck_tile` or after `using namespace ck_tile;`).  The tests
 * compile snippets as C++17 against a host-only stand-in with ck_tile's
 * maker names and argument shapes (tests/support/ck_tile_mock.hpp) and
 * compare its offsets; they are not compiled against ck_tile itself (no
 * ROCm in CI).
 *
 * Thread safety: pure, reentrant.  Errors as status.h.
 */
#ifndef LAYOUT_CK_CPP_H
#define LAYOUT_CK_CPP_H

#include <stddef.h>

#include "layout/descriptor.h"
#include "layout/status.h"

#ifdef __cplusplus
extern "C" {
#endif

/**
 * Write the ck_tile C++ snippet building @p d into @p buf (snprintf
 * semantics: at most @p cap - 1 characters and a NUL; @p buf may be NULL
 * when @p cap is 0; truncation is not an error) and its full length
 * (without the NUL) into *@p needed (may be NULL).  The first line is a
 * comment with the text form; the last statement names the result
 * `lds_desc`.
 * Errors: ::LAYOUT_ERR_NULL (d; buf with cap > 0); ::LAYOUT_ERR_UNSUPPORTED
 * when @p d has no text form (not built as a base plus stages).
 */
layout_status layout_desc_to_ck_cpp(const layout_descriptor *d, char *buf, size_t cap, size_t *needed,
                                    layout_error *err);

#ifdef __cplusplus
}
#endif

#endif /* LAYOUT_CK_CPP_H */
