"""lint's errors right and risky calls found per ecosystem, on hand-labelled real repositories.

    python benchmarks/lint_eval_ecosystems.py TREES [--set dev|heldout|...|heldout9] [--misses]

TREES holds ``<set>/src/<owner>+<repo>`` for each set: the working trees of the commits the labels name
(``benchmarks/lint_eval/{dev,heldout,heldout2}.jsonl``: repo, commit, ecosystem, path, line, kind, and per
target the expected severity of a risky call).  The development set was used while building; ``heldout`` was
labelled after the first round's code was written and used for development in the second; ``heldout2`` was
chosen before the second round's code was read against it (14 repositories, every candidate line of the
smaller ones and a seeded random sample of files of the larger: ``heldout2`` rows name them), labelled
after that code was written, scored once and then used for development (rows changed since say so in their
note).  ``heldout3`` (13 repositories: segment-anything, stable-diffusion, dino, denoising-diffusion-pytorch,
imagen-pytorch, maxdiffusion, deeplab2, keras-vision-models, keras-retinanet, keras-ocr,
stable-diffusion-tensorflow, diffusers-rs, tch-rs) was chosen and labelled blind in the third round, from the
repositories' code and the libraries' semantics, before the linter was run on it (every candidate line, a seeded
sample of keras-vision-models' processor files, a sample of tch-rs's generated bindings: the rows' notes say
which).  ``heldout4`` (334 lines of 14 repositories none of the earlier sets holds: simclr, maxvit, magvit and
automl for JAX/TF; qqwweee's and experiencor's keras-yolo3 and keras-unet-collection for Keras; DeepLabV3Plus-Pytorch,
Depth-Anything and yolov5 for PyTorch; usls, mlx-rs, diffusion-rs and kornia-rs for Rust) was labelled blind in the
fourth round, by the same rules, from the repositories' code and the libraries' semantics, without running the
linter or reading its code (the calls and call-like lines among the candidate lines of the labelled files;
comments, docstrings, imports, definitions and enum names left unlabelled; Depth-Anything's vendored copy of DINOv2,
diffusion-rs's vendored tensor core and usls's CUDA processor not labelled; kornia-rs a seeded sample of files: the
rows' notes say so).  ``heldout5`` (233 lines of 10 repositories no earlier set holds: frame-interpolation,
score_sde and tapnet's JAX code for JAX/TF; zhixuhao/unet and xuannianz/EfficientDet for Keras; semseg,
guided-diffusion, U-2-Net, deep-image-prior and tapnet's PyTorch port for PyTorch; kingzcheung/yolov10 (candle) for
Rust) was labelled blind in the fifth round, by the same rules, while that round's linter changes were being
made (every candidate line of every file with one; a repository of two ecosystems has each line under its file's),
scored once and then used for development; ``heldout6`` (142 lines of 8 repositories: tensorflow-yolov3,
PSPNet-tensorflow, Keras-FCN, Image-Super-Resolution, SPADE, PyTorch-YOLOv3, pytorch-deeplab-xception, yolo-dl) was
labelled blind the same way and scored once on that round's final code; ``heldout7`` (212 lines of 9 repositories:
vqgan-jax, jax-guided-diffusion, tensorflow-yolov4-tflite, keras-image-models, segme (a subset),
segment_anything_keras, detr, YOLOX, burn_depth) likewise, scored once on the next round's code; ``heldout8`` (234
lines of 10 repositories) and ``heldout9`` (171 lines of 9 more) likewise in the ninth round, the first scored
before that round's last changes and then used for development, the second scored once on its final code.
For each repository and target the linter runs over
the whole tree; its findings (warning and above) on the labelled files are matched by path and line:

* errors right: of the lines reported as errors, the share labelled error;
* risky found: of the lines labelled risky (error, differs or warning), the share reported at warning or above;
* on a non-call: findings on lines labelled as no call (strings, project classes, instance calls) or not
  labelled at all.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections import defaultdict
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from explorer.advisor.lint import lint  # noqa: E402

LABELS = Path(__file__).resolve().parent / "lint_eval"
TARGETS = {"burn": {"backend": "burn-tch", "training": True}, "candle": {"backend": "candle", "training": True},
           "mps": {"backend": "torch", "device": "mps", "training": True},
           "ort11": {"backend": "onnxruntime", "export": "onnx-torchscript", "opset": 11}}
COMMANDS = {"burn": "--backend burn-tch --train", "candle": "--backend candle --train",
            "mps": "--backend torch --device mps --train", "ort11": "--backend onnxruntime --export onnx-torchscript --opset 11"}
#: Targets scored per ecosystem (PyTorch targets read PyTorch code; every ecosystem is ported to Burn and candle).
SCORED = {"PyTorch": ("burn", "candle", "mps", "ort11"), "JAX/TF": ("burn", "candle"), "Keras 3": ("burn", "candle"),
          "Rust": ("burn", "candle")}
CALLS = ("call", "wrapper-call")
ORDER = {"error": 0, "differs": 1, "warning": 2, "info": 3}


def evaluate(tree: Path, rows: list[dict], target: str) -> tuple[dict, list]:
    started = time.process_time()
    report = lint(tree, **TARGETS[target])
    seconds = time.process_time() - started
    files = {r["path"] for r in rows}
    by_line = {(r["path"], r["line"]): r for r in rows}
    shown: dict = {}
    for issue in report:
        key = (issue.site.path, issue.site.line)
        if issue.site.path in files and (key not in shown or ORDER[issue.severity] < ORDER[shown[key]]):
            shown[key] = issue.severity
    s = defaultdict(int)
    notes = []
    for key, severity in shown.items():
        row = by_line.get(key)
        expected = (row or {}).get("risk", {}).get(target)
        if row is None or row["kind"] not in CALLS + ("test",):
            s["on_non_call"] += 1
            notes.append(("NON-CALL", key, severity, row["kind"] if row else "unlabelled"))
        if severity == "error":
            s["errors"] += 1
            s["errors_right"] += expected == "error"
            if expected != "error":
                notes.append(("WRONG-ERROR", key, expected, row["note"] if row else ""))
    for row in rows:
        expected = row.get("risk", {}).get(target)
        if not expected:
            continue
        s["risky"] += 1
        got = shown.get((row["path"], row["line"]))
        s["found"] += got is not None
        if got is None:
            notes.append(("MISS", (row["path"], row["line"]), expected, row["note"]))
    s["seconds"] = seconds
    return s, notes


def ratio(a, b) -> str:
    return "—" if not b else f"{100 * a / b:.0f}% ({a}/{b})"


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("trees", type=Path)
    sets = sorted((p.stem for p in LABELS.glob("*.jsonl")), key=lambda n: (n != "dev", len(n), n))
    parser.add_argument("--set", action="append", choices=sets, help="a labelled set (benchmarks/lint_eval/<set>.jsonl)")
    parser.add_argument("--misses", action="store_true")
    args = parser.parse_args(argv)
    out = ["| set | ecosystem | repositories | errors right | risky found | findings on a non-call | CPU s |",
           "|---|---|---|---|---|---|---|"]
    for name in args.set or ("dev", "heldout", "heldout2"):
        rows = [json.loads(line) for line in (LABELS / f"{name}.jsonl").read_text().splitlines() if line.strip()]
        by_repo = defaultdict(list)
        for row in rows:  # a repository of two ecosystems (tapnet: JAX and its PyTorch port) is scored as each
            by_repo[row["repo"], row["ecosystem"]].append(row)
        totals = defaultdict(lambda: defaultdict(int))
        repos = defaultdict(set)
        for (repo, ecosystem), repo_rows in by_repo.items():
            repos[ecosystem].add(repo.replace("+", "/"))
            for target in SCORED[ecosystem]:
                stats, notes = evaluate(args.trees / name / "src" / repo, repo_rows, target)
                for k, v in stats.items():
                    totals[ecosystem][k] += v
                if args.misses:
                    for note in notes:
                        print(f"  {name} {repo} {target}: {note}", file=sys.stderr)
        for ecosystem, s in totals.items():
            out.append(f"| {name} | {ecosystem} | {', '.join(sorted(repos[ecosystem]))} | "
                       f"{ratio(s['errors_right'], s['errors'])} | {ratio(s['found'], s['risky'])} | "
                       f"{s['on_non_call']} | {s['seconds']:.1f} |")
    print("\n".join(out))


if __name__ == "__main__":
    main()
