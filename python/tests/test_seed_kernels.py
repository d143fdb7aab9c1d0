"""Known answers from the seed kernels (the talk "LDS Bank Conflicts on CDNA", docs/lds-model.md §4.1):
the published rocprofv3 counters on MI300 (gfx942) for the whole problem
(8192 tiles), the closed forms of the layouts (docs/lds-model.md §4.2), and the
structure of the instructions the talk lists."""

from __future__ import annotations

import json
from array import array

import pytest

import liblayout as ll
from conftest import LDS_08, R_08, R_KMAJOR, SEED, SEED_TILES, W_ALL


@pytest.mark.parametrize(
    "kernel, conflicts, insts",
    [
        # the talk's table: SQ_LDS_BANK_CONFLICT and SQ_INSTS_LDS measured on MI300
        ("01", 3_670_016, 294_912),
        ("02", 1_572_864, 294_912),
        ("03", 786_432, 327_680),
        ("08", 0, 65_536),
    ],
)
def test_published_counters_gfx942(kernel: str, conflicts: int, insts: int) -> None:
    write_view, read_view, read_dist = SEED[kernel]
    r = ll.check_kernel("gfx942", write_view, W_ALL, read_dist, read_lds=read_view, elem=2, tiles=SEED_TILES)
    assert r.sq_lds_bank_conflict == conflicts
    assert r.sq_insts_lds == insts
    assert r.tiles == SEED_TILES
    assert r.conflict_free == (conflicts == 0)


def test_kernel01_sides() -> None:
    # The talk: 1 x ds_write_b128 per wave, conflict-free; 8 x ds_read_u16 per
    # wave, each 14 extra cycles (8-way in each half-wave): 8*14*4 = 448 per tile.
    r = ll.check_kernel("gfx942", "packed([64,32])", W_ALL, R_KMAJOR, read_lds="naive([32,64],[1,32])")
    assert r.write.direction == "write" and r.read.direction == "read"
    assert r.write.op_count == {"ds_write_b128": 1}
    assert r.read.op_count == {"ds_read_u16": 8}
    assert r.read.ops == "8 x ds_read_u16"
    assert r.write.extra_cycles_per_tile == 0
    assert r.read.extra_cycles_per_tile == 8 * 14 * 4 == 448
    assert r.read.worst_extra == 14
    assert r.write.n_warps == r.read.n_warps == 4
    assert r.instrs_per_tile == 4 * 1 + 4 * 8
    assert "SQ_LDS_BANK_CONFLICT" in r.summary


def test_kernel01_report() -> None:
    r = ll.check_kernel("gfx942", "packed([64,32])", W_ALL, R_KMAJOR, read_lds="naive([32,64],[1,32])")
    rep = r.report()
    assert rep.extra_cycles == 448
    data = json.loads(rep.json)
    assert data["arch"] == "gfx942"
    labels = [s["label"] for s in data["sides"]]
    assert labels == ["write", "read"]
    # the worst read: 8 lanes sharing a k sit 512 bytes apart on one bank (8-way)
    assert "8-way" in rep.text
    assert rep.data == data


def test_kernel08_conflict_free_triple() -> None:
    # the talk's "XOR done right": 0 conflicts on both sides on gfx942
    r = ll.check_triple("gfx942", W_ALL, LDS_08, R_08, elem=2)
    assert r.extra_cycles_per_tile == 0
    assert r.conflict_free
    assert r.write.op_count == {"ds_write_b128": 1}
    assert r.read.op_count == {"ds_read_b128": 1}
    assert r.tiles == 1
    assert r.report().extra_cycles == 0


def test_kernel_plan_matches_check_kernel() -> None:
    for kernel, (wv, rv, rd) in SEED.items():
        plan = ll.KernelPlan("gfx942", wv, W_ALL, rd, read_lds=rv, tiles=SEED_TILES)
        a = plan.check()
        b = ll.check_kernel("gfx942", wv, W_ALL, rd, read_lds=rv, tiles=SEED_TILES)
        assert (a.sq_lds_bank_conflict, a.sq_insts_lds, a.read.ops, a.write.ops) == (
            b.sq_lds_bank_conflict, b.sq_insts_lds, b.read.ops, b.write.ops), kernel


def test_kernel03_offsets() -> None:
    # rows padded to kK + 2 = 34 fp16: offset(m, k) = 34 m + k (README: (3,5) -> 107)
    d = ll.Descriptor.from_text("naive([64,32],[34,1])")
    assert d.offset(3, 5) == 107
    assert d.offset((3, 5)) == 107
    assert d.shape == (64, 32)
    assert d.size == 2048
    assert d.element_space_size == 1 + 63 * 34 + 31
    assert list(d.offsets()) == [m * 34 + k for m in range(64) for k in range(32)]
    assert list(d.offsets([(3, 5), (0, 0), (63, 31)])) == [107, 0, 63 * 34 + 31]
    # the same through the constructor
    assert ll.Descriptor.naive([64, 32], [34, 1]) == d


def k08_closed_form(m: int, k: int, L: int = 2) -> int:
    # docs/lds-model.md §4.2 / tests/consumer/consumer.c: B = m / L, A = (m % L)*4 + k/8, C = k % 8
    B, A, C = m // L, (m % L) * 4 + k // 8, k % 8
    return B * 32 * L + (A ^ (B % (4 * L))) * 8 + C


def test_kernel08_offsets_closed_form() -> None:
    d = ll.Descriptor.from_text(LDS_08)
    assert d.shape == (64, 32)
    expect = [k08_closed_form(m, k) for m in range(64) for k in range(32)]
    assert list(d.offsets()) == expect
    assert sorted(expect) == list(range(2048))  # a permutation: no padding, no overlap
    # worked values of layout.h's tutorial and plan.h
    assert d.offset(2, 0) == 72
    assert d.offset(3, 9) == 97
    assert d.offset(9, 31) == 287


def test_kernel08_banks() -> None:
    # bank = (2 * offset / 4) % 32 on gfx942 and % 64 on gfx950 (fp16, 4-byte banks)
    d = ll.Descriptor.from_text(LDS_08)
    b42 = d.banks("gfx942", elem=2)
    assert isinstance(b42, array) and len(b42) == 2048
    assert list(b42) == [(k08_closed_form(m, k) * 2 // 4) % 32 for m in range(64) for k in range(32)]
    b50 = d.banks(ll.Arch("gfx950"), elem=2, base=256)
    assert list(b50) == [((256 + k08_closed_form(m, k) * 2) // 4) % 64 for m in range(64) for k in range(32)]


def test_padding_banks_marked() -> None:
    # a pad row in front: row 0 is padding (-1), row r >= 1 holds offsets 5(r-1) + c
    d = ll.Descriptor.from_text("naive([4,4],[5,1]) | T{pad(4,1,0):[0]->[0] ; pass(4):[1]->[1]}")
    assert d.shape == (5, 4)
    banks = d.banks("gfx942", elem=4)
    assert list(banks[:4]) == [-1, -1, -1, -1]
    assert list(banks[4:]) == [5 * (r - 1) + c for r in range(1, 5) for c in range(4)]
    assert list(d.valid()) == [0] * 4 + [1] * 16
    assert not d.is_valid(0, 2) and d.is_valid(1, 2)


def test_distribution_known_coords() -> None:
    w = ll.Distribution.from_text(W_ALL)
    assert (w.n_warps, w.wave_size, w.shape, w.y_lengths, w.elems_per_thread) == (4, 64, (64, 32), (8,), 8)
    for warp in range(4):
        for lane in (0, 5, 63):
            for y in (0, 7):
                assert w.coord(warp, lane, y) == (16 * warp + lane // 4, 8 * (lane % 4) + y)
    r = ll.Distribution.from_text(R_08)
    # m = lane, k = 8*warp + y1 (Y = (y0 over H0[0] = 1, y1 over H1[1] = 8))
    assert r.coord(2, 17, 5) == (17, 8 * 2 + 5)


def test_single_instruction_check() -> None:
    # check.h's example: gfx942 b32, lane i at byte 128*i: two groups of 32 lanes
    # on bank 0 -> extra 62, total 64.
    res = ll.check("gfx942", [ll.Instr.strided(64, 4, base=0, stride=128)])
    assert (res.extra_cycles, res.total_cycles, res.n_instrs) == (62, 64, 1)
    assert not res.conflict_free
    # consecutive dwords: conflict-free
    res = ll.check(ll.Arch("gfx942"), [ll.Instr([4 * l for l in range(64)], 4, "write")])
    assert res.extra_cycles == 0 and res.conflict_free
    # inactive lanes cost nothing: only lanes 0 and 1 active, same bank, different words -> 1 extra
    res = ll.check("gfx942", [ll.Instr([128 * l for l in range(64)], 4, active=0b11)])
    assert res.extra_cycles == 1
    res = ll.check("gfx942", [ll.Instr([128 * l for l in range(64)], 4, active=[l < 2 for l in range(64)])])
    assert res.extra_cycles == 1
