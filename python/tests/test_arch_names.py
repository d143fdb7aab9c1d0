"""Architecture aliases reach Python through layout_arch_from_text: product
names and Triton targets name presets (NVIDIA's compute-capability table:
H100 and H200 are 9.0, B200 10.0, A100 8.0; AMD's ROCm table: MI300X and
MI325X are gfx942, MI355X gfx950), and a typo is answered with the closest
name."""

from __future__ import annotations

import pytest

import liblayout as ll


@pytest.mark.parametrize(
    "typed,preset",
    [("H100", "sm_90"), ("h200", "sm_90"), ("B200", "sm_100"), ("A100", "sm_80"), ("cuda:90", "sm_90"),
     ("MI300X", "gfx942"), ("MI325X", "gfx942"), ("mi355x", "gfx950"), ("hip:gfx942", "gfx942"),
     ("SM_90", "sm_90")],
)
def test_alias(typed: str, preset: str) -> None:
    a = ll.Arch(typed)
    assert a.name == preset
    assert a.text == preset


def test_typo_suggests() -> None:
    with pytest.raises(ll.LayoutError) as info:
        ll.Arch("sm90")
    assert "did you mean sm_90?" in str(info.value)
