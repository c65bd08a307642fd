"""Peak memory (resident set) of the calls that used to exhaust memory, each in a fresh process.

Each example runs in its own Python process; the script prints what the call returned or raised, the peak
resident set of the process after its imports, and at the end of the call (``VmHWM``), so the difference
is what the call itself cost.

    python benchmarks/peak_memory.py [--only NAME ...] [--markdown]
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")

#: name -> (what it shows, the code run after ``import numpy as np, explorer`` and ``from explorer import Spec``)
EXAMPLES = {
    "plans-300": ("300 distinct antialiased Lanczos plans of a 100,000-sample axis, forward and backward", """
x = np.random.default_rng(0).random(100_000)
spec = Spec('lanczos3', antialias=True, exclude_outside=True)
for m in range(1, 301):
    y = explorer.resize(x, (m,), spec)
    explorer.resize_backward(np.ones(m), x.shape, (m,), spec)
result = y.shape
"""),
    "linear-4M": ("interpolate(rand(1, 1, 7), size=4_000_000, mode='linear'): a 15 MiB float32 output", """
x = np.random.default_rng(0).random((1, 1, 7), dtype=np.float32)
result = explorer.interpolate(x, size=4_000_000, mode='linear').shape
"""),
    "tiny-kernel-scale": ("resize(ones(8), (4,), antialiased linear, scale_factor=1e-7): 4 outputs, 2e7 taps each", """
result = explorer.resize(np.ones(8), (4,), Spec('linear', antialias=True), scale_factor=1e-7).round(6)
"""),
    "pillow-100000": ("library_resize(8x8 uint8, (100000, 100000), pillow BICUBIC)", """
x = np.zeros((8, 8), np.uint8)
result = explorer.library_resize(x, (100000, 100000), library='pillow', mode='BICUBIC').shape
"""),
    "fixes-2000x": ("suggest_fixes(1x3x32x32, nearest-exact on burn-tch, scale_factor=2000)", """
x = np.random.default_rng(0).random((1, 3, 32, 32), dtype=np.float32)
result = len(explorer.suggest_fixes(x, mode='nearest-exact', backend='burn-tch', scale_factor=2000))
"""),
    "png-40M": ("load_image of a 6300x6300 RGB PNG (just under 40 M pixels, a small file)", """
import os
from explorer.images import load_image
path = os.environ['PEAK_MEMORY_PNG']
result = (os.path.getsize(path), load_image(path).shape)
"""),
}

_RUNNER = """
import resource, json, sys
resource.setrlimit(resource.RLIMIT_AS, ({limit}, {limit}))  # a runaway call fails instead of swapping the machine
import numpy as np, explorer
from explorer import Spec
def rss():  # VmHWM: the peak resident set of this program (ru_maxrss would count the parent's before the exec)
    for line in open("/proc/self/status"):
        if line.startswith("VmHWM:"):
            return int(line.split()[1]) / 1024
before = rss()
try:
{code}
    outcome = repr(result)
except Exception as exc:
    outcome = f"{{type(exc).__name__}}: {{str(exc)[:160]}}"
print(json.dumps({{"before": before, "after": rss(), "outcome": outcome}}))
"""


#: address-space limit of each example's process (bytes)
LIMIT = 16 * 2**30


def _png() -> str:
    """A 6300x6300 RGB PNG (a flat colour: a file of a few hundred KB), written once."""
    import tempfile

    path = os.path.join(tempfile.gettempdir(), "peak_memory_6300.png")
    if not os.path.exists(path):
        from PIL import Image

        Image.new("RGB", (6300, 6300), (10, 200, 30)).save(path, format="PNG")
    return path


def run(name: str) -> dict:
    _, code = EXAMPLES[name]
    body = "\n".join("    " + line for line in code.strip().splitlines())
    env = dict(os.environ, PYTHONPATH=os.environ.get("PYTHONPATH", ROOT), PEAK_MEMORY_PNG=_png())
    # -P: the explorer comes from PYTHONPATH, not from the working directory
    proc = subprocess.run([sys.executable, "-P", "-c", _RUNNER.format(code=body, limit=LIMIT)],
                          capture_output=True, text=True, env=env, timeout=900, check=False)
    lines = proc.stdout.strip().splitlines()
    if proc.returncode != 0 or not lines:
        return {"before": float("nan"), "after": float("nan"),
                "outcome": f"process failed ({proc.returncode}): {proc.stderr.strip().splitlines()[-1:]}"}
    return json.loads(lines[-1])


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--only", nargs="+", choices=sorted(EXAMPLES))
    parser.add_argument("--markdown", action="store_true")
    args = parser.parse_args(argv)
    names = args.only or list(EXAMPLES)
    if args.markdown:
        print("| example | peak RSS after imports (MiB) | peak RSS after the call (MiB) | the call cost (MiB) | outcome |")
        print("|---|---|---|---|---|")
    for name in names:
        r = run(name)
        cost = r["after"] - r["before"]
        if args.markdown:
            print(f"| {name} | {r['before']:.0f} | {r['after']:.0f} | {cost:.0f} | {r['outcome']} |")
        else:
            print(f"{name:<18} {r['before']:7.0f} MiB -> {r['after']:7.0f} MiB  (+{cost:.0f})  {r['outcome']}")
            print(f"{'':<18} {EXAMPLES[name][0]}")


if __name__ == "__main__":
    main()
