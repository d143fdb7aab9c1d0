"""Text round trips: text -> object -> canonical text -> object -> the same
text (include/layout/text.h's promise), for descriptors, distributions and
architectures, on the seed kernels and random descriptors."""

from __future__ import annotations

import random

import pytest

import liblayout as ll
from conftest import LDS_08, R_08, R_KMAJOR, SEED, W_ALL, random_desc_text


@pytest.mark.parametrize("text", sorted({t for k in SEED.values() for t in k[:2]}))
def test_descriptor_round_trip_seed(text: str) -> None:
    d = ll.Descriptor.from_text(text)
    canon = d.text
    d2 = ll.Descriptor.from_text(canon)
    assert d2.text == canon
    assert list(d2.offsets()) == list(d.offsets())
    assert d2 == d and hash(d2) == hash(d)
    assert str(d) == canon and "Descriptor.from_text(" in repr(d)


def test_descriptor_canonical_forms() -> None:
    # spaces and comments vanish; aligned() prints back as the equal naive()
    assert ll.Descriptor.from_text("naive( [2, 3] , [4,1] ) # comment").text == "naive([2,3],[4,1])"
    assert ll.Descriptor.from_text("aligned([2,3],align=4)").text == "naive([2,3],[4,1])"
    assert ll.Descriptor.packed([4, 8]).text == "packed([4,8])"
    # text.h: an intermediate stage written by hand may come back renumbered
    # (the same descriptor); the canonical text is a fixed point
    canon = ll.Descriptor.from_text(LDS_08).text
    assert ll.Descriptor.from_text(canon).text == canon
    assert list(ll.Descriptor.from_text(canon).offsets()) == list(ll.Descriptor.from_text(LDS_08).offsets())


def test_descriptor_round_trip_random() -> None:
    rng = random.Random(13)
    accepted = 0
    for _ in range(300):
        text = random_desc_text(rng)
        try:
            d = ll.Descriptor.from_text(text)
        except ll.LayoutError:
            continue
        accepted += 1
        canon = d.text
        d2 = ll.Descriptor.from_text(canon)
        assert d2.text == canon, text
        assert list(d2.offsets()) == list(d.offsets()), text
        assert list(d2.valid()) == list(d.valid()), text
    assert accepted > 150  # the generator mostly produces valid descriptors


@pytest.mark.parametrize("text", [W_ALL, R_KMAJOR, R_08])
def test_distribution_round_trip(text: str) -> None:
    d = ll.Distribution.from_text(text)
    assert d.text == text  # the seed texts are written canonically
    d2 = ll.Distribution.from_text(d.text)
    assert d2 == d
    assert [d2.coord(w, l, e) for w in range(4) for l in range(0, 64, 7) for e in range(d.elems_per_thread)] == [
        d.coord(w, l, e) for w in range(4) for l in range(0, 64, 7) for e in range(d.elems_per_thread)]


def test_arch_round_trip() -> None:
    names = ll.Arch.presets()
    assert "gfx942" in names and "gfx950" in names and "sm_90" in names
    for name in names:
        a = ll.Arch(name)
        assert a.text == name and a.name == name
        assert ll.Arch(a.text) == a
        assert repr(a) == f"Arch({name!r})" and str(a) == name
        assert "bank" in a.describe()
    a = ll.Arch("arch(base=gfx942, name=gfx942-64, banks=64)")
    assert (a.name, a.n_banks, a.bank_bytes, a.wave_size) == ("gfx942-64", 64, 4, 64)
    assert a.text.startswith("arch(name=gfx942-64, banks=64")
    assert ll.Arch(a.text) == a
    assert ll.Arch("gfx942") != ll.Arch("gfx950")
    assert ll.Arch("gfx950").n_banks == 64 and ll.Arch("sm_90").wave_size == 32
