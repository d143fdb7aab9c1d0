"""Python results == C results: every figure here is compared with the
`layout` command-line tool of the same build (a separate C program printing
the library's answers), on the seed kernels and on random descriptors; and
with closed forms computed independently in the test."""

from __future__ import annotations

import json
import random

import pytest

import liblayout as ll
from conftest import R_08, R_KMAJOR, SEED, W_ALL, parse_banks_output, parse_offsets_output, random_desc_text, run_tool


def _random_accepted(rng: random.Random, count: int):
    out = []
    while len(out) < count:
        text = random_desc_text(rng)
        try:
            out.append((text, ll.Descriptor.from_text(text)))
        except ll.LayoutError:
            pass
    return out


def test_offsets_random_vs_tool(tool: str) -> None:
    rng = random.Random(2026)
    for text, d in _random_accepted(rng, 40):
        proc = run_tool(tool, "offsets", text)
        assert proc.returncode == 0, proc.stderr
        assert list(d.offsets()) == parse_offsets_output(proc.stdout), text
        # the interpreting path (explicit coordinates) agrees with the compiled tile
        coords = [tuple(c) for c in _all_coords(d.shape)]
        assert list(d.offsets(coords)) == list(d.offsets()), text
        assert [d.offset(*c) for c in coords[:50]] == list(d.offsets(coords[:50])), text


def _all_coords(shape):
    if not shape:
        return [()]
    return [(i,) + rest for i in range(shape[0]) for rest in _all_coords(shape[1:])]


def test_banks_random_vs_tool(tool: str) -> None:
    rng = random.Random(7)
    checked = 0
    for text, d in _random_accepted(rng, 60):
        if d.ndims != 2:
            continue
        arch = rng.choice(["gfx942", "gfx950", "sm_90"])
        elem = rng.choice([1, 2, 4, 8, 16])
        base = rng.choice([0, 4, 100])
        proc = run_tool(tool, "banks", text, "--arch", arch, "--elem", str(elem), "--base", str(base))
        assert proc.returncode == 0, proc.stderr
        assert list(d.banks(arch, elem=elem, base=base)) == parse_banks_output(proc.stdout), (text, arch, elem)
        checked += 1
    assert checked >= 10


def test_naive_random_closed_form() -> None:
    # naive: offset = sum coord[i] * stride[i] (descriptor.h), computed here
    rng = random.Random(5)
    for _ in range(100):
        nd = rng.randint(1, 4)
        lens = [rng.randint(1, 6) for _ in range(nd)]
        strides = [rng.randint(0, 100) for _ in range(nd)]
        d = ll.Descriptor.naive(lens, strides)
        expect = [sum(c * s for c, s in zip(coord, strides)) for coord in _all_coords(tuple(lens))]
        assert list(d.offsets()) == expect


def _tool_check(tool: str, arch: str, lds: str, read_lds: str, write: str, read: str, tiles: int, elem: int = 2):
    args = ["check", "--arch", arch, "--elem", str(elem), "--lds", lds, "--write", write, "--read", read,
            "--tiles", str(tiles), "--json"]
    if read_lds != lds:
        args += ["--read-lds", read_lds]
    proc = run_tool(tool, *args)
    assert proc.returncode in (0, 1), proc.stderr
    return json.loads(proc.stdout)


@pytest.mark.parametrize("arch", ["gfx942", "gfx950"])
@pytest.mark.parametrize("kernel", sorted(SEED))
def test_seed_kernels_vs_tool(tool: str, kernel: str, arch: str) -> None:
    wv, rv, rd = SEED[kernel]
    c = _tool_check(tool, arch, wv, rv, W_ALL, rd, 8192)
    r = ll.check_kernel(arch, wv, W_ALL, rd, read_lds=rv, tiles=8192)
    assert r.sq_lds_bank_conflict == c["sq_lds_bank_conflict"]
    assert r.sq_insts_lds == c["sq_insts_lds"]
    assert r.extra_cycles_per_tile == c["extra_cycles_per_tile"]
    assert r.instrs_per_tile == c["instrs_per_tile"]
    assert r.conflict_free == c["conflict_free"]
    for side, cs in zip((r.write, r.read), c["sides"]):
        assert side.direction == cs["direction"]
        assert side.ops == cs["ops"]
        assert side.steps_per_wave == cs["steps_per_wave"]
        assert side.extra_cycles_per_tile == cs["extra_cycles_per_tile"]
        assert side.total_cycles_per_tile == cs["total_cycles_per_tile"]
        assert side.n_misaligned == cs["misaligned_steps"]
        assert (side.worst_warp, side.worst_step, side.worst_extra) == (
            cs["worst"]["warp"], cs["worst"]["step"], cs["worst"]["extra"])
    # the checker's report: the tool embeds the library's JSON report of one tile
    assert json.loads(r.report().json) == c["report"]


def test_random_lds_views_vs_tool(tool: str) -> None:
    # random [64, 32] LDS views (row pitch, padding, xor) under the seed
    # distributions, fp16 and fp32: every total equals the tool's
    rng = random.Random(99)
    compared = 0
    for _ in range(12):
        pitch = rng.choice([32, 33, 34, 36, 40, 48, 64])
        kind = rng.choice(["naive", "xor"])
        if kind == "naive":
            lds = f"naive([64,32],[{pitch},1])"
        else:
            lds = f"naive([64,32],[32,1]) | T{{xor([64,32]):[0,1]->[0,1]}}"
        read = rng.choice([R_KMAJOR, R_08])
        read_lds = f"naive([32,64],[1,{pitch}])" if (read == R_KMAJOR and kind == "naive") else lds
        if read == R_KMAJOR and kind == "xor":
            read = R_08
        elem = rng.choice([2, 4])
        arch = rng.choice(["gfx942", "gfx950"])
        try:
            r = ll.check_kernel(arch, lds, W_ALL, read, read_lds=read_lds, tiles=3, elem=elem)
        except ll.LayoutError as exc:
            # the tool must refuse the same input with the same message
            args = ["check", "--arch", arch, "--elem", str(elem), "--lds", lds, "--write", W_ALL, "--read", read,
                    "--read-lds", read_lds]
            proc = run_tool(tool, *args)
            assert proc.returncode == 2 and exc.message in proc.stderr
            continue
        c = _tool_check(tool, arch, lds, read_lds, W_ALL, read, 3, elem)
        assert (r.sq_lds_bank_conflict, r.sq_insts_lds, r.write.ops, r.read.ops) == (
            c["sq_lds_bank_conflict"], c["sq_insts_lds"], c["sides"][0]["ops"], c["sides"][1]["ops"]), (lds, read)
        compared += 1
    assert compared >= 6
