// A host-only stand-in for the ck_tile makers that layout_desc_to_ck_cpp()
// emits, with the names and argument shapes of ROCm/composable_kernel's
// include/ck_tile/core (tensor_descriptor.hpp: make_naive_tensor_descriptor,
// make_naive_tensor_descriptor_packed, make_naive_tensor_descriptor_with_offset,
// transform_tensor_descriptor; coordinate_transform.hpp: make_*_transform;
// number<>, long_number<>, sequence<>, make_tuple).  Offsets follow the
// formulas of ck_tile's coordinate transforms (as include/layout/transform.h
// states them), written here from ck_tile's definitions and not from
// liblayout's code.  tests/test_ck_cpp.c compiles every snippet against
// it (C++17, constexpr as the snippets declare) and compares the offsets.
#ifndef CK_TILE_MOCK_HPP
#define CK_TILE_MOCK_HPP

namespace ck_tile {

using i64 = long long;

template <i64 N> struct number {
    static constexpr i64 value = N;
};
template <i64 N> using long_number = number<N>;
template <int... Is> struct sequence {};

enum Kind { PASS, PAD, LPAD, RPAD, EMBED, MERGE, UNMERGE, FREEZE, INSERT, REPLICATE, SLICE, MODULO, XOR, OFFSET };

struct Vec {
    i64 v[8];
    int n;
};
struct Tr {
    Kind k;
    int nlo, nup;
    Vec up, lo, par; // upper lengths, lower lengths (merge), parameters
};
struct Item {
    Tr t;
    Vec s;
};
struct List {
    Item it[8];
    int n;
};

constexpr Vec make_tuple() { return Vec{{0}, 0}; }
template <i64... N> constexpr Vec make_tuple(number<N>...) { return Vec{{N...}, int(sizeof...(N))}; }
constexpr Item item(const Tr& t) { return Item{t, Vec{{0}, 0}}; }
template <int... Is> constexpr Item item(sequence<Is...>) { return Item{Tr{}, Vec{{Is...}, int(sizeof...(Is))}}; }
template <class... T> constexpr List make_tuple(T... t) { return List{{item(t)...}, int(sizeof...(T))}; }

template <class A> constexpr i64 val(A) { return A::value; }
constexpr Tr tr(Kind k, int nlo, int nup, Vec up, Vec lo, Vec par) { return Tr{k, nlo, nup, up, lo, par}; }
constexpr Vec one(i64 a) { return Vec{{a}, 1}; }
constexpr Vec two(i64 a, i64 b) { return Vec{{a, b}, 2}; }
constexpr Vec none() { return Vec{{0}, 0}; }
constexpr i64 prod(const Vec& v)
{
    i64 p = 1;
    for (int i = 0; i < v.n; i++) p *= v.v[i];
    return p;
}

template <class L> constexpr Tr make_pass_through_transform(L l) { return tr(PASS, 1, 1, one(val(l)), one(val(l)), none()); }
template <class L, class A, class B> constexpr Tr make_pad_transform(L l, A a, B b)
{
    return tr(PAD, 1, 1, one(val(l) + val(a) + val(b)), one(val(l)), two(val(a), val(b)));
}
template <class L, class A> constexpr Tr make_left_pad_transform(L l, A a)
{
    return tr(LPAD, 1, 1, one(val(l) + val(a)), one(val(l)), one(val(a)));
}
template <class L, class A> constexpr Tr make_right_pad_transform(L l, A a)
{
    return tr(RPAD, 1, 1, one(val(l) + val(a)), one(val(l)), one(val(a)));
}
constexpr Tr make_embed_transform(Vec up, Vec coef) { return tr(EMBED, 1, up.n, up, none(), coef); }
constexpr Tr make_merge_transform(Vec lo) { return tr(MERGE, lo.n, 1, one(prod(lo)), lo, none()); }
constexpr Tr make_merge_transform_v3_division_mod(Vec lo) { return make_merge_transform(lo); }
constexpr Tr make_unmerge_transform(Vec up) { return tr(UNMERGE, 1, up.n, up, none(), none()); }
template <class V> constexpr Tr make_freeze_transform(V v) { return tr(FREEZE, 1, 0, none(), none(), one(val(v))); }
template <class L> constexpr Tr make_insert_transform(L l) { return tr(INSERT, 0, 1, one(val(l)), none(), none()); }
constexpr Tr make_replicate_transform(Vec up) { return tr(REPLICATE, 0, up.n, up, none(), none()); }
template <class L, class B, class E> constexpr Tr make_slice_transform(L l, B b, E e)
{
    return tr(SLICE, 1, 1, one(val(e) - val(b)), one(val(l)), one(val(b)));
}
template <class M, class L> constexpr Tr make_modulo_transform(M m, L l) { return tr(MODULO, 1, 1, one(val(l)), none(), one(val(m))); }
constexpr Tr make_xor_transform(Vec l) { return tr(XOR, 2, 2, l, l, one(l.v[1])); }
template <class L, class O> constexpr Tr make_offset_transform(L l, O o) { return tr(OFFSET, 1, 1, one(val(l)), none(), one(val(o))); }

struct Desc {
    Tr t[24];
    int lo[24][8], up[24][8];
    int nt, ntop, nh;
    int top[8];
};

constexpr Desc base(Tr t0, int n)
{
    Desc d{};
    d.t[0] = t0;
    d.lo[0][0] = 0;
    for (int i = 0; i < n; i++) d.up[0][i] = d.top[i] = i + 1;
    d.nt = 1;
    d.ntop = n;
    d.nh = n + 1;
    return d;
}
template <class... Opt> constexpr Desc make_naive_tensor_descriptor(Vec l, Vec s, Opt...) { return base(make_embed_transform(l, s), l.n); }
template <class... Opt> constexpr Desc make_naive_tensor_descriptor_packed(Vec l, Opt...) { return base(make_unmerge_transform(l), l.n); }
template <class O> constexpr Desc make_naive_tensor_descriptor_with_offset(Vec l, Vec s, O o)
{
    Desc d = base(make_offset_transform(number<1>{}, o), 1); // offset: hidden 0 <- hidden 1
    d.t[1] = make_embed_transform(l, s);
    d.lo[1][0] = 1;
    for (int i = 0; i < l.n; i++) d.up[1][i] = d.top[i] = i + 2;
    d.nt = 2;
    d.ntop = l.n;
    d.nh = l.n + 2;
    return d;
}

constexpr Desc transform_tensor_descriptor(Desc d, List trs, List los, List ups)
{
    int newtop[8] = {0}, nnew = 0;
    for (int i = 0; i < trs.n; i++) {
        const Tr& t = trs.it[i].t;
        int k = d.nt++;
        d.t[k] = t;
        for (int j = 0; j < los.it[i].s.n; j++) d.lo[k][j] = d.top[los.it[i].s.v[j]];
        for (int j = 0; j < ups.it[i].s.n; j++) {
            d.up[k][j] = d.nh++;
            newtop[ups.it[i].s.v[j]] = d.up[k][j];
            nnew++;
        }
    }
    for (int j = 0; j < nnew; j++) d.top[j] = newtop[j];
    d.ntop = nnew;
    return d;
}

// Element offset of one top coordinate: write the top, run the transforms
// from last to first, as ck_tile's tensor descriptors do.
inline i64 offset_of(const Desc& d, const i64* coord)
{
    i64 h[64] = {0};
    for (int k = 0; k < d.ntop; k++) h[d.top[k]] = coord[k];
    for (int i = d.nt - 1; i >= 0; i--) {
        const Tr& t = d.t[i];
        const int* lo = d.lo[i];
        const int* up = d.up[i];
        switch (t.k) {
        case PASS: h[lo[0]] = h[up[0]]; break;
        case PAD:
        case LPAD: h[lo[0]] = h[up[0]] - t.par.v[0]; break;
        case RPAD: h[lo[0]] = h[up[0]]; break;
        case EMBED: {
            i64 s = 0;
            for (int j = 0; j < t.nup; j++) s += h[up[j]] * t.par.v[j];
            h[lo[0]] = s;
            break;
        }
        case MERGE: {
            i64 x = h[up[0]];
            for (int j = t.nlo - 1; j > 0; j--) {
                h[lo[j]] = x % t.lo.v[j];
                x /= t.lo.v[j];
            }
            h[lo[0]] = x;
            break;
        }
        case UNMERGE: {
            i64 s = 0;
            for (int j = 0; j < t.nup; j++) s = s * t.up.v[j] + h[up[j]];
            h[lo[0]] = s;
            break;
        }
        case FREEZE: h[lo[0]] = t.par.v[0]; break;
        case INSERT:
        case REPLICATE: break;
        case SLICE:
        case OFFSET: h[lo[0]] = h[up[0]] + t.par.v[0]; break;
        case MODULO: h[lo[0]] = h[up[0]] % t.par.v[0]; break;
        case XOR:
            h[lo[0]] = h[up[0]];
            h[lo[1]] = h[up[1]] ^ (h[up[0]] % t.par.v[0]);
            break;
        }
    }
    return h[0];
}

} // namespace ck_tile

#endif
