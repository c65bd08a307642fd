"""The knowledge base's PyTorch CPU texts are what PyTorch 2.13 really raises (run here, on the CPU)."""

from __future__ import annotations

import re

import pytest

import explorer
from explorer.advisor import knowledge

torch = pytest.importorskip("torch", reason="the PyTorch oracle is installed by the 'oracles' extra")
F = torch.nn.functional

pytestmark = pytest.mark.oracle
KB = knowledge.load()


def _x(dims=2, dtype=torch.float32):
    return torch.rand((1, 1) + (5,) * dims).to(dtype)


CASES = {
    "torch-lanczos-requires-antialias": lambda: F.interpolate(_x(), size=(3, 3), mode="lanczos"),
    "torch-lanczos-align-corners": lambda: F.interpolate(_x(), size=(3, 3), mode="lanczos", antialias=True,
                                                         align_corners=True),
    "torch-antialias-scope": lambda: F.interpolate(_x(), size=(3, 3), mode="nearest", antialias=True),
    "torch-antialias-rank": lambda: F.interpolate(_x(3), size=(3, 3, 3), mode="bilinear", antialias=True),
    "torch-align-corners-non-interpolating": lambda: F.interpolate(_x(), size=(3, 3), mode="area",
                                                                   align_corners=False),
    "torch-bicubic-rank": lambda: F.interpolate(_x(3), size=(3, 3, 3), mode="bicubic"),
    "torch-linear-rank": lambda: F.interpolate(_x(2), size=(3, 3), mode="linear"),
    "torch-bilinear-rank": lambda: F.interpolate(_x(1), size=3, mode="bilinear"),
    "torch-trilinear-rank": lambda: F.interpolate(_x(2), size=(3, 3), mode="trilinear"),
    "torch-half-antialias": lambda: F.interpolate(_x(dtype=torch.float16), size=(3, 3), mode="bilinear",
                                                  antialias=True),
    "torch-bfloat16-antialias": lambda: F.interpolate(_x(dtype=torch.bfloat16), size=(3, 3), mode="bicubic",
                                                      antialias=True),
    "torch-half-lanczos": lambda: F.interpolate(_x(dtype=torch.float16), size=(3, 3), mode="lanczos",
                                                antialias=True),
    "torch-bfloat16-lanczos": lambda: F.interpolate(_x(dtype=torch.bfloat16), size=(3, 3), mode="lanczos",
                                                    antialias=True),
    "torch-uint8-area": lambda: F.interpolate(_x(dtype=torch.uint8), size=(3, 3), mode="area"),
    "torch-int32-nearest": lambda: F.interpolate(_x(dtype=torch.int32), size=(3, 3), mode="nearest"),
    "torch-int32-bilinear": lambda: F.interpolate(_x(dtype=torch.int32), size=(3, 3), mode="bilinear"),
    "torch-int32-bicubic": lambda: F.interpolate(_x(dtype=torch.int32), size=(3, 3), mode="bicubic"),
    "torch-int32-area": lambda: F.interpolate(_x(dtype=torch.int32), size=(3, 3), mode="area"),
    "torch-integer-gradient": lambda: _x(dtype=torch.uint8).requires_grad_(),
}


@pytest.mark.parametrize("record_id", sorted(CASES))
def test_text_is_what_torch_raises(record_id):
    record = KB.record(record_id)
    with pytest.raises(Exception) as info:
        CASES[record_id]()
    first_line = str(info.value).splitlines()[0]
    pattern = re.escape(record.error_text).replace(re.escape("{rank}"), r"\d")
    assert re.fullmatch(pattern, first_line), (first_line, record.error_text)
    if record.error_type:
        assert type(info.value).__name__ == record.error_type


def test_measured_torch_records_all_have_an_oracle_case():
    measured = [r.id for r in KB.records if r.library == "torch" and r.evidence == "measured" and r.error_text
                and r.operation == "forward" and "cpu" in r.devices + ("*",) and r.when.get("argument") is None]
    missing = [rid for rid in measured if rid not in CASES and not rid.startswith("torch-empty")]
    assert missing == []


def test_check_predicts_what_torch_does():
    """For every oracle case, check() on the same configuration reports the record as an error on the CPU."""
    queries = {
        "torch-half-antialias": dict(mode="bilinear", antialias=True, dtype="float16"),
        "torch-uint8-area": dict(mode="area", dtype="uint8"),
        "torch-lanczos-requires-antialias": dict(mode="lanczos"),
        "torch-align-corners-non-interpolating": dict(mode="area", align_corners=False),
    }
    for record_id, query in queries.items():
        findings = explorer.check(backend="torch", device="cpu", training=False, **query)
        assert record_id in [f.record_id for f in findings if f.severity == "error"], record_id
