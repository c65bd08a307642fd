"""A pasted log is untrusted and long: the line that explains it is read however many repeated lines follow."""

import pytest

from explorer.advisor import diagnose

PREAMBLE = "".join(f"info: step {k} loss 0.{k:04d}\n" for k in range(2000))
PANIC = ("thread 'main' panicked at crates/burn-tch/src/ops/module.rs:458:17:\n"
         "nearest exact interpolation backward is not supported by PyTorch/tch backend\n")


@pytest.mark.parametrize("lines,width", [(2000, 200), (3000, 100), (20_000, 95)])
def test_a_panic_followed_by_thousands_of_repeated_warnings_is_found(lines, width):
    warning = "warning: unused variable `x` in the generated module, consider prefixing it with an underscore "
    noise = "".join(f"{warning}{'.' * (width - len(warning))} [{k}]\n" for k in range(lines))
    d = diagnose(PREAMBLE + PANIC + noise)
    assert d.matched and d.findings[0].record_id == "burn-tch-nearest-exact-backward"
