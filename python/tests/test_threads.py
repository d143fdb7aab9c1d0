"""ctypes releases the GIL around every library call, so threads really run
liblayout concurrently: results must equal the sequential ones (the library
is reentrant and keeps no global mutable state)."""

from __future__ import annotations

import threading
from array import array

import pytest

import liblayout as ll
from conftest import LDS_08, SEED, W_ALL


def test_concurrent_checks_and_offsets() -> None:
    expect = {k: ll.check_kernel("gfx942", wv, W_ALL, rd, read_lds=rv, tiles=8192).sq_lds_bank_conflict
              for k, (wv, rv, rd) in SEED.items()}
    lds = ll.Descriptor.from_text(LDS_08)
    expect_offsets = lds.offsets().tolist()
    plans = {k: ll.KernelPlan("gfx942", wv, W_ALL, rd, read_lds=rv, tiles=8192) for k, (wv, rv, rd) in SEED.items()}
    errors = []

    def worker(seed: int) -> None:
        try:
            buf = array("q", bytes(8 * 2048))
            for i in range(20):
                k = sorted(SEED)[(seed + i) % len(SEED)]
                wv, rv, rd = SEED[k]
                got = ll.check_kernel("gfx942", wv, W_ALL, rd, read_lds=rv, tiles=8192).sq_lds_bank_conflict
                if got != expect[k]:
                    errors.append((k, got))
                if plans[k].check().sq_lds_bank_conflict != expect[k]:
                    errors.append((k, "plan"))
                if lds.offsets(out=buf).tolist() != expect_offsets:
                    errors.append("offsets")
        except Exception as exc:  # pragma: no cover - reported below
            errors.append(exc)

    threads = [threading.Thread(target=worker, args=(s,)) for s in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert errors == []


def test_numpy_zero_copy() -> None:
    np = pytest.importorskip("numpy")
    lds = ll.Descriptor.from_text(LDS_08)
    out = np.full((64, 32), -1, dtype=np.int64)
    assert lds.offsets(out=out) is out
    assert out.ravel().tolist() == lds.offsets().tolist()
    coords = np.array([[3, 9], [2, 0]], dtype=np.int64)
    assert lds.offsets(coords).tolist() == [97, 72]
