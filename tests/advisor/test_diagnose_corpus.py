"""diagnose on the corpus of real error texts (tests/data/error_corpus), on fragments and inside long logs,
and the shape of its work: linear in the length of the text, counted without a clock."""

from __future__ import annotations

import random
import sys

import pytest

import explorer
from explorer import limits

from error_corpus import load, score, verdict

CORE = load("core")
EXTENDED = load("extended")


def test_corpus_is_real_and_sourced():
    """Every entry keeps the link (or the run) it came from and the answer it is scored against."""
    assert len(CORE) >= 60 and len({e["id"] for e in CORE + EXTENDED}) == len(CORE) + len(EXTENDED)
    for entry in CORE + EXTENDED:
        assert entry["text"].strip() and entry["source"].strip()
        assert entry["retrieved"] in ("measured", "quoted")
        if entry["retrieved"] == "quoted":
            assert entry["source"].startswith("https://"), entry["id"]
        assert {"library", "mode", "operation", "is_resize_error"} <= set(entry["expected"])
    assert sum(not e["expected"]["is_resize_error"] for e in CORE) >= 15  # look-alike negatives


# Floors a little under the accuracy measured when they were set: core 128 of 130, extended 143 of 154.
def test_core_accuracy_keeps_its_measured_floor():
    accuracy, misses = score("core")
    assert accuracy >= 0.96, misses


def test_extended_accuracy_keeps_its_measured_floor():
    accuracy, misses = score("extended")
    assert accuracy >= 0.91, misses


# Floors of the quoted sets, a little under what was reached when they were set (backend, device and warnings
# scored too).  The sets of the vendor runtimes and converters: fresh.json 77 of 94, heldout.json 54 of 66 (both
# used for building once heldout's first score, 23 of 66, had been taken).  The sets collected from public
# threads after them: threads.json was built from (18 of 28 right before any record of it, 22 after);
# threads_heldout.json was held back and scored once at the end (10 of 15 before this round's records, 11
# after); their scoring also checks the release the text names.  threads2.json was built from (8 of 22 right
# before any record of it, 20 after); threads2_heldout.json was held back and scored once at the end (6 of 13
# before, 8 after).  Their floors are the shares measured (20/22, 8/13), rounded down.  threads3.json was built
# from (8 of 24 right before any record of it, 16 after: floor 16/24 rounded down).  threads2_heldout's floor is
# 7/13 since then: its eighth, Python 2's "'module' object has no attribute 'Upsample'" of a torch without
# nn.Upsample, was counted right only because the pickled-torchvision-Resize record claimed it (another object and
# another attribute), which an AttributeError text no longer lets it.  threads3_heldout.json was held back and
# scored once at the end: 7 of 16 before the threads3 records, 8 of 16 after, two of them explained by a wrong
# record (a torch TypeError by JAX's "resize() got an unexpected keyword argument", a torch 0.3 glibc crash by
# OpenVINO's 6-D abort); after the two rules below (test_a_texts_own_function_and_crash_decide), 8 right and
# none wrong: floor 8/16.
# threads4.json (26) and threads4_heldout.json (30) came from threads no earlier set quotes, split at random
# (seed 47) before any record was written; threads4 was scored before its records (11 of 26) and built from
# (16 of 26 after), threads4_heldout was scored once on the result (11 of 30, none wrong, the five look-alikes
# left alone) and then built from (13 of 30).  The floors of the held-back sets of the rounds before are what
# they score after this round's records (threads2_heldout 9/13, threads3_heldout 12/16).
# threads5.json (23) and threads5_heldout.json (22) came from threads no earlier set quotes (45 of the 46
# collected; one near-copy of a heldout.json text dropped), split at random (seed 53: half the resize texts and
# half the look-alikes held back) before any record was written; threads5 was scored before its records (9 of
# 23) and built from (19 of 23), threads5_heldout scored before (10 of 22) and once after the round's records
# (11 of 22, none wrong, the five look-alikes left alone), then built from (14 of 22); threads4_heldout 17/30.
QUOTED_SETS = {"fresh": 0.79, "heldout": 0.78, "threads": 0.75, "threads_heldout": 0.70, "threads2": 0.90,
               "threads2_heldout": 0.69, "threads3": 0.66, "threads3_heldout": 0.75, "threads4": 0.61,
               "threads4_heldout": 0.56, "threads5": 0.82, "threads5_heldout": 0.63}
# each set's look-alikes (texts of the same runtimes about another operator: ADD / CONV_2D failed to prepare,
# MaxPool, RGBToHSV, WebGPU Add; numpy / torch array resizes ...), at least this many
LOOK_ALIKES = {"fresh": 5, "heldout": 5, "threads": 3, "threads_heldout": 3, "threads2": 4, "threads2_heldout": 2,
               "threads3": 5, "threads3_heldout": 3, "threads4": 5, "threads4_heldout": 5, "threads5": 5,
               "threads5_heldout": 5}


@pytest.mark.parametrize("name, floor", sorted(QUOTED_SETS.items()))
def test_quoted_sets_keep_their_measured_floor(name, floor):
    entries = load(name)
    assert all(e["source"].startswith("https://") and e["retrieved"] == "quoted" for e in entries)
    accuracy, misses = score(name)
    assert accuracy >= floor, misses


@pytest.mark.parametrize("name, least", sorted(LOOK_ALIKES.items()))
def test_quoted_sets_claim_no_look_alike(name, least):
    """No negative of these sets (a text about another operator of the same runtime) is claimed."""
    entries = [e for e in load(name) if not e["expected"]["is_resize_error"]]
    assert len(entries) >= least
    assert [e["id"] for e in entries if explorer.diagnose(e["text"]).matched] == []


@pytest.mark.parametrize("entry", [e for e in CORE if e["expected"]["is_resize_error"]], ids=lambda e: e["id"])
def test_a_resize_error_is_found_inside_a_long_log(entry):
    """The same answer when the text sits in the middle of a 1 MB training log."""
    rng = random.Random(entry["id"])
    noise = "\n".join(f"step {i} loss={rng.random():.4f} lr={rng.random():.2e} images/s={rng.randint(1, 900)}"
                      for i in range(12_000))
    alone = explorer.diagnose(entry["text"])
    inside = explorer.diagnose(noise + "\n" + entry["text"] + "\n" + noise[: len(noise) // 3])
    if verdict(entry, alone) is None:
        assert verdict(entry, inside) is None, [f.record_id for f in inside.findings]


@pytest.mark.parametrize("entry", [e for e in CORE if not e["expected"]["is_resize_error"]], ids=lambda e: e["id"])
def test_a_negative_stays_negative_in_a_traceback(entry):
    text = ('Traceback (most recent call last):\n  File "/home/u/train.py", line 88, in <module>\n'
            "    loss.backward()\n" + entry["text"])
    assert not explorer.diagnose(text).matched


def test_the_message_line_alone_is_enough():
    """For measured tracebacks, the last line (the exception) gives the same record as the whole traceback."""
    checked = 0
    for entry in CORE:
        if entry["retrieved"] != "measured" or not entry["expected"]["is_resize_error"]:
            continue
        whole = explorer.diagnose(entry["text"])
        last = [line for line in entry["text"].splitlines() if line.strip()][-1]
        if not whole.matched or len(last) < 40 or "Error" not in last:
            continue
        first = explorer.diagnose(last)
        assert first.matched and first.findings[0].record_id in [f.record_id for f in whole.findings], entry["id"]
        checked += 1
    assert checked >= 15


def test_paths_hashes_and_line_numbers_do_not_change_the_answer():
    text = next(e["text"] for e in CORE if e["id"] == "torch-cpu-uint8-area")
    moved = (text.replace("/work/venv/lib/python3.11/site-packages", r"C:\Users\me\miniconda3\Lib\site-packages")
             .replace("line 5211", "line 4090").replace("line 1447", "line 1213"))
    assert [f.record_id for f in explorer.diagnose(text).findings] == \
        [f.record_id for f in explorer.diagnose(moved).findings]


def test_the_answer_names_record_backend_mode_operation_cause_releases_and_fixes():
    text = next(e["text"] for e in CORE if e["id"] == "torch-mps-old-wording-bicubic-comfyui")
    answer = explorer.diagnose(text)
    finding = answer.findings[0]
    assert finding.record_id == "torch-mps-bicubic-missing"
    assert (finding.backend, finding.mode, finding.operation) == ("torch", "bicubic", "forward")
    assert "2.6" in finding.versions and finding.message and finding.fixes
    assert "mps" in answer.clues.devices and "2.6" in answer.message


def test_the_release_a_text_names_is_read():
    new = explorer.diagnose(next(e["text"] for e in CORE if e["id"] == "torch-mps-new-wording-bicubic-aa-traceback"))
    assert "torch 2.6.0" in new.message  # the commit hash 2236df17... is 2.6.0's
    assert new.findings[0].record_id == "torch-mps-bicubic-aa-forward-missing"


def test_too_long_a_text_is_refused_clearly():
    with pytest.raises(ValueError, match="characters"):
        explorer.diagnose("x" * (limits.DIAGNOSE_MAX_CHARS + 1))


# ----------------------------------------------------------------------------------------------- the work
def _work(text: str) -> int:
    """Python lines executed plus C functions called while diagnosing ``text`` (a clock-free measure)."""
    count = [0]

    def trace(frame, event, arg):
        count[0] += 1
        return trace

    def profile(frame, event, arg):
        if event == "c_call":
            count[0] += 1

    sys.settrace(trace)
    sys.setprofile(profile)
    try:
        explorer.diagnose(text)
    finally:
        sys.settrace(None)
        sys.setprofile(None)
    return count[0]


def _log(size: int, rng: random.Random) -> str:
    lines, n = [], 0
    error = next(e["text"] for e in CORE if e["id"] == "torch-cuda-det-bilinear-backward-out-cuda-wrapped")
    while n < size:
        line = f"epoch {rng.randint(0, 99)} loss={rng.random():.5f} warning: slow step {rng.randint(0, 10**6)}"
        lines.append(line)
        n += len(line) + 1
    return "\n".join(lines) + "\n" + error


SHAPES = {
    "log with warnings and an error": lambda size, rng: _log(size, rng),
    "one traceback repeated": lambda size, rng: (CORE[0]["text"] + "\n") * max(1, size // len(CORE[0]["text"])),
    "one long line": lambda size, rng: "a" * size + " upsample_bilinear2d_backward_out_cuda does not have",
    "unique words": lambda size, rng: " ".join(f"w{rng.getrandbits(40):x}" for _ in range(size // 12)),
}


@pytest.mark.slow
@pytest.mark.parametrize("shape", sorted(SHAPES))
def test_work_grows_at_most_linearly_with_the_text(shape):
    explorer.diagnose(CORE[0]["text"])  # the index of known texts is built once, outside the measure
    sizes = [2**k for k in range(12, 23, 2)]  # 4 KB ... 4 MB
    work = [_work(SHAPES[shape](size, random.Random(size))) for size in sizes]
    for small, large, w_small, w_large in zip(sizes, sizes[1:], work, work[1:]):
        assert w_large <= (large / small) * w_small * 1.1 + 5_000, (shape, sizes, work)
    assert work[-1] <= (sizes[-1] / sizes[0]) * work[0] * 1.1 + 5_000, (shape, sizes, work)


def test_thread_sets_share_no_text_or_thread_with_the_earlier_sets():
    earlier = [e for name in ("core", "extended", "fresh", "heldout") for e in load(name)]
    sources = {e["source"] for e in earlier}
    texts = {e["text"].strip() for e in earlier}
    threads = load("threads") + load("threads_heldout")
    assert not {e["id"] for e in load("threads")} & {e["id"] for e in load("threads_heldout")}
    assert [e["id"] for e in threads if e["source"] in sources or e["text"].strip() in texts] == []


def test_the_later_thread_sets_share_no_text_or_thread_with_any_earlier_set():
    """threads2 / threads2_heldout were collected from threads no earlier set quotes (none of their links, none
    of their texts), and their ids do not overlap."""
    earlier = [e for name in ("core", "extended", "fresh", "heldout", "threads", "threads_heldout") for e in load(name)]
    sources = {e["source"].rstrip("/") for e in earlier}
    texts = {e["text"].strip() for e in earlier}
    later = load("threads2") + load("threads2_heldout")
    assert len({e["id"] for e in later}) == len(later)
    assert [e["id"] for e in later if e["source"].rstrip("/") in sources or e["text"].strip() in texts] == []
    held = [e for e in load("threads2_heldout")]
    assert 0.3 <= len(held) / len(later) <= 0.45 and any(not e["expected"]["is_resize_error"] for e in held)


def test_the_fourth_thread_sets_share_no_text_or_thread_with_any_earlier_set():
    earlier = [e for name in ("core", "extended", "fresh", "heldout", "threads", "threads_heldout", "threads2",
                              "threads2_heldout", "threads3", "threads3_heldout") for e in load(name)]
    sources = {e["source"].rstrip("/") for e in earlier}
    texts = {e["text"].strip() for e in earlier}
    later = load("threads4") + load("threads4_heldout")
    assert len({e["id"] for e in later}) == len(later) == 56
    assert [e["id"] for e in later if e["source"].rstrip("/") in sources or e["text"].strip() in texts] == []


def test_the_fifth_thread_sets_share_no_text_or_thread_with_any_earlier_set():
    earlier = [e for name in ("core", "extended", "fresh", "heldout", "threads", "threads_heldout", "threads2",
                              "threads2_heldout", "threads3", "threads3_heldout", "threads4", "threads4_heldout")
               for e in load(name)]
    sources = {e["source"].split("#")[0].rstrip("/") for e in earlier}
    texts = {" ".join(e["text"].lower().split()) for e in earlier}
    later = load("threads5") + load("threads5_heldout")
    assert len({e["id"] for e in later}) == len(later) == 45
    assert [e["id"] for e in later if e["source"].split("#")[0].rstrip("/") in sources
            or " ".join(e["text"].lower().split()) in texts] == []


# pytorch/pytorch#95500 (bfloat16 for the CUDA upsample kernels, merged 2023-02-27): "this change did not make it
# into the final Torch 2.0.0 build" (2023-03-17); pytorch/pytorch#80339 (2023-04-02): "It will be a part of
# torch 2.1"; AI4EPS/EQNet#4: "please upgrade your `torch` to `2.1.0` or higher".
FIRST_RELEASE_WITH_CUDA_BF16_UPSAMPLE = "2.1.0"


@pytest.mark.parametrize("text, release", [
    ('RuntimeError: "upsample_bilinear2d_out_frame" not implemented for \'BFloat16\'', "2.0.1"),
    ('RuntimeError: "upsample_nearest2d_out_frame" not implemented for \'BFloat16\'', "2.0.0"),
    ('RuntimeError: "upsample_linear1d_out_frame" not implemented for \'BFloat16\'', "1.13.1"),
])
def test_cuda_bfloat16_upsample_ends_where_the_threads_say(text, release):
    from explorer.advisor import knowledge
    diagnosis = explorer.diagnose(text)
    record = knowledge.load().record(diagnosis.findings[0].record_id)
    assert "cuda" in record.devices
    assert record.versions.contains(release)          # 2.0.x still lacks it (pytorch#95500 missed 2.0.0)
    assert not record.versions.contains(FIRST_RELEASE_WITH_CUDA_BF16_UPSAMPLE)


@pytest.mark.parametrize("text, release", [
    ("/Users/a/anaconda/envs/py36/lib/python3.6/site-packages/torch/onnx/symbolic.py:69: UserWarning: ONNX export "
     "failed on upsample_bilinear2d because align_corners == True not supported", "1.4.0"),   # pytorch#29980
    ("torch/onnx/utils.py:562: UserWarning: ONNX export failed on ATen operator upsample_bilinear2d because "
     "torch.onnx.symbolic_opset9.upsample_bilinear2d does not exist", "1.2.0"),              # pytorch#25515
])
def test_a_1x_onnx_export_failure_gets_a_1x_cause_and_a_fix_that_release_has(text, release):
    """The 1.x exporters go no higher than opset 11 ... 16: the fix is opset 11 or an upgrade, never opset 18."""
    from explorer.advisor import knowledge
    finding = explorer.diagnose(text).findings[0]
    record = knowledge.load().record(finding.record_id)
    assert record.operation == "export_onnx" and record.versions.contains(release)
    assert not record.versions.contains("2.0.0")
    assert finding.fixes and finding.fixes[0].id in ("onnx-opset-11", "torch-upgrade")


def test_a_flex_resize_that_fails_to_prepare_is_not_a_builtin_bilinear_convention():
    """LiteRT's `Node number N (FlexResizeNearestNeighbor) failed to prepare` (tensorflow#45140) names the Flex
    node; `Node number N (ADD) failed to prepare` names another operator and is left alone."""
    finding = explorer.diagnose("Node number 51 (FlexResizeNearestNeighbor) failed to prepare.").findings[0]
    assert finding.record_id.startswith("litert-flex")
    assert not explorer.diagnose("Node number 189 (ADD) failed to prepare.").matched


# The texts of the threads3 round, quoted from their threads (not read from the corpus files), each with the record
# that explains it and a release the thread or the library's source says prints it; and texts of the same
# runtimes about something else, which stay unexplained.
THREAD_TEXTS = [
    ("Uncaught (in promise) ValueError: input_size (147, 190) cannot be smaller than crop size "
     "tensor([[158., 156.]]) in any dimension", "kornia-crop-larger-than-input-before-0.5.1", "0.5.0"),  # kornia#956
    ("RuntimeError: upsample_nearest_nhwc only supports output tensors with less than INT_MAX elements",
     "torch-cuda-nearest-nhwc-int-max", "2.0.1"),                        # pytorch#81665, diffusers#3643
    ('  File "C:\\env\\lib\\site-packages\\PIL\\Image.py", line 2297, in resize\n'
     "    if self.size == size and box == (0, 0) + self.size:\n"
     "ValueError: The truth value of an array with more than one element is ambiguous. Use a.any() or a.all()",
     "pillow-10.4-resize-size-not-tuple", "10.4.0"),                      # Pillow#8220
    ("No OpKernel was registered to support Op 'ResizeBilinear'", "tf-resize-kernel-not-registered", None),
    ("[E] [TRT] UffParser: Validator error: functional_1/up_sampling2d_5/resize/ResizeNearestNeighbor: "
     "Unsupported operation _ResizeNearestNeighbor", "tensorrt-uff-resize-nearest-unsupported", "8.2"),  # TensorRT#1631
    ('[ ERROR ]  Cannot infer shapes or values for node "Resize_164".\n[ ERROR ]  There is no registered "infer" '
     'function for node "Resize_164" with op = "Resize". Please implement this function in the extensions.',
     "openvino-mo-resize11-no-infer-before-2021.1", "2019.3"),             # YOLOX#370
    ("Original exception message: ONNX Resize operation from opset 12 is not supported.",
     "openvino-mo-resize-opset-refused-before-2021.1", "2020.4"),          # openvino#2374
    ("AttributeError: 'Resize' object has no attribute 'max_size'", "torchvision-resize-object-from-before-0.10",
     None),
]
OTHER_TEXTS = [
    "AttributeError: 'Upsample' object has no attribute 'weight'",                   # mmdetection#6371
    "No OpKernel was registered to support Op 'CudnnRNN'",
    "InvalidArgumentError: No OpKernel was registered to support Op 'Mul' with these attrs.  Registered devices: [CPU]",
    "ValueError: The truth value of an array with more than one element is ambiguous. Use a.any() or a.all()",
    "ValueError: input_size (147, 190) is not a valid shape",
]


@pytest.mark.parametrize("text, record_id, release", THREAD_TEXTS, ids=[t[1] for t in THREAD_TEXTS])
def test_a_thread_text_gets_its_record(text, record_id, release):
    from explorer.advisor import knowledge
    answer = explorer.diagnose(text)
    assert answer.matched and answer.findings[0].record_id == record_id, answer.message
    if release is not None:
        assert knowledge.load().record(record_id).versions.contains(release)


@pytest.mark.parametrize("text", OTHER_TEXTS)
def test_a_text_about_something_else_stays_unexplained(text):
    assert not explorer.diagnose(text).matched


# Two texts of the held-back threads3 set that were once explained by another runtime's record: Python's TypeError
# names the function that refused the keyword, and glibc's crash line is printed by any program.
@pytest.mark.parametrize("text, record_id", [
    ("TypeError: resize() got an unexpected keyword argument 'align_corners'\n  jax.image.resize(x, (1, 8, 8, 3), "
     "'bilinear', align_corners=True)", "jax-no-align-corners"),
    ("TypeError: upsample_bilinear2d() got an unexpected keyword argument 'align_corners' "
     "(occurred when translating upsample_bilinear2d)", None),                  # inisis/brocolli#4
    ("compile_model('CPU') of an ONNX Resize (mode linear) on a 6-D input:\nfree(): invalid pointer\nAborted",
     "openvino-cpu-6d-linear-abort"),
    ("*** Error in `python': free(): invalid pointer: 0x00007fbea6fdfd40 ***\n======= Backtrace: =========\n"
     "/lib/x86_64-linux-gnu/libc.so.6(+0x777e5)[0x7fbed7b017e5]\n"
     "site-packages/torch/_thnn/_THNN.cpython-36m-x86_64-linux-gnu.so(+0x2f367)[0x7fbe764f6367]", None),
])
def test_a_texts_own_function_and_crash_decide(text, record_id):
    answer = explorer.diagnose(text)
    if record_id is None:
        assert not answer.matched, answer.message
    else:
        assert answer.matched and answer.findings[0].record_id == record_id, answer.message
