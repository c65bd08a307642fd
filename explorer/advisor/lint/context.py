"""Where a call runs, from where its code is: model code, a test, a data pipeline, an evaluation, a script.

Each place is judged by what matters there (``judge.py``):

* ``model``: code of a model, trained by the run's question (``--train``, the default) and exported with it;
* ``test``: a unit test (``tests/``, ``test_*.py``, ``*_test.py``, a ``test_*`` function or ``Test*`` class,
  Rust ``#[test]`` functions, ``#[cfg(test)]`` modules, ``tests/`` and ``benches/``): it runs the call forward
  only, unless it shows gradients; nothing in it is exported;
* ``preprocessing``: a data pipeline (``tf.data`` maps, ``pp/``, ``data/``, ``transforms/``, Keras image
  converters and ``*_processor.py`` files, augmentations, a TensorFlow op in a module whose model is JAX or
  PyTorch): it runs before the model, without gradients, and is
  not ported with it; a difference on the target is a difference in the deployment's preprocessing
  (``differs``), not a failure of the model;
* ``evaluation``: evaluators and metrics, and a model's inference code (``*_inference.py``, ``*_predictor.py``),
  likewise outside the model;
* ``script``: a script or demo that runs a model (``scripts/``, ``tools/``, ``demo*``, ``inference*``, a weight
  converter ``convert_*_to_*.py``; a Rust example's ``main.rs``) and does not train it (no ``.backward()``,
  optimiser or gradient call in the file).

>>> [path_context(p) for p in ("tests/test_up.py", "big_vision/pp/ops_image.py", "src/models/unet.py",
...                            "keras_hub/src/models/sam/sam_image_converter.py", "big_vision/evaluators/fid.py",
...                            "simclr/data_util.py", "models/sam2/sam2_video_processor.py",
...                            "models/sam2/sam2_video_inference.py", "dino_v2/convert_dino_v2_hf_to_keras.py")]
['test', 'preprocessing', None, 'preprocessing', 'evaluation', 'preprocessing', 'preprocessing', 'evaluation', 'script']
>>> rust_test_lines("fn f() {}\\n#[cfg(test)]\\nmod tests {\\n    #[test]\\n    fn up() {}\\n}\\n")
{2, 3, 4, 5, 6}
"""

from __future__ import annotations

import re

CONTEXTS = ("model", "test", "preprocessing", "evaluation", "script")

_PARTS = re.compile(r"[/\\]")
_TEST_DIRS = {"test", "tests", "testing", "benches", "unittests"}
_PRE_DIRS = {"pp", "preprocessing", "preprocess", "data", "datasets", "dataset", "transforms", "input_pipeline",
             "augment", "augmentation", "augmentations", "data_pipeline", "pipelines"}
_EVAL_DIRS = {"evaluators", "evaluation", "evaluations", "eval", "metrics", "visualization", "visualizations",
              "visualizing", "visualize", "vis"}
_SCRIPT_DIRS = {"scripts", "tools", "demo", "demos"}
_TEST_FILE = re.compile(r"(^test_.*|.*_test|^conftest|.*_tests)\.(py|rs)$")
_PRE_FILE = re.compile(r"(preprocess|augment|transforms?\.py$|input_pipeline|_converter\.py$|data_?loader|"
                       r"dataset|_data\.py$|^data_?utils?\.py$|_processor\.py$|^image_processing)", re.IGNORECASE)
_EVAL_FILE = re.compile(r"(^eval|_eval\.py$|evaluat|metric|visuali[sz]|[_-](inference|infer|predict|predictor)\.py$)",
                        re.IGNORECASE)
_SCRIPT_FILE = re.compile(r"^(demo|inference|infer|predict|app|export|run)[^/]*\.py$|[_-]demo\.py$"
                          r"|^convert_\w+_to_\w+\.py$", re.IGNORECASE)
#: Names of functions whose code runs before the model (input pipelines) or after it (post-processing of its
#: predictions, metrics, visualisation), wherever the file is: ``preprocess_image``, ``_update_metrics``, ``infer``.
_PRE_FUNCTION = re.compile(r"^_*(pre_?process|augment|data_aug|decode_and_|(center|random)_crop"
                           r"|random_resized_crop|distorted_bounding_box_crop)", re.IGNORECASE)
_POST_FUNCTION = re.compile(r"^_*(post_?process|infer($|_|ence)|predict($|_)|evaluat|visuali[sz]|plot_|draw_|"
                            r"record_prediction|save_prediction)|(^|_)metrics?($|_)", re.IGNORECASE)
#: Names of functions that convert or load a checkpoint's weights once, on the host (``load_resized_weights``,
#: ``convert_weights``): what they resize is a weight on its way in, not a layer of the model.
_LOAD_FUNCTION = re.compile(r"^_*(load|convert|port|transfer)_(\w+_)?(weights?|checkpoint|state_dict|params|variables)"
                            r"($|_)", re.IGNORECASE)
#: Names of classes whose code runs before the model or after it: ``PostProcessPanoptic``, ``PreprocessLayer``.
_CLASS_CONTEXT = re.compile(r"^_*(post|pre)_?process", re.IGNORECASE)
#: A file that shows it trains what it runs.
TRAINS = re.compile(r"\.backward\s*\(|\bautograd\.grad\s*\(|\bjax\.(value_and_)?grad\s*\(|\bvalue_and_grad\s*\("
                    r"|\.gradient\s*\(|\boptim(?:izer)?\b|\boptax\b|\bbackward_step\b|\bAdamW?\b|\bSGD\b"
                    r"|\bGradientTape\b|\btrain_step\b|\.fit\s*\(")


#: Directories that keep old or unused copies of code (``old_scripts/``, ``deprecated/``): nothing runs them
#: unless something imports them.
_ARCHIVE_DIR = re.compile(r"^(old|olds|old_[\w-]+|[\w-]+_old|deprecated|legacy|archive[sd]?|unused|backups?|obsolete|"
                          r"attic)$", re.IGNORECASE)


def archive_dir(path: str) -> str | None:
    """The directory of old or unused copies a file is in, or None.

    >>> archive_dir("old_scripts/old_deeplab.py"), archive_dir("models/deeplab.py"), archive_dir("legacy/net.py")
    ('old_scripts', None, 'legacy')
    """
    return next((p for p in _PARTS.split(path)[:-1] if p and _ARCHIVE_DIR.match(p)), None)


def path_context(path: str, name_only: bool = True) -> str | None:
    """The context a file's path says, or None (model code, or not said).  ``name_only=False``: what it says
    without the file name's test suffix (for a ``*_test.py`` that holds no test: a test split's dataset).

    >>> path_context("zoedepth/data/diml_indoor_test.py"), path_context("zoedepth/data/diml_indoor_test.py", False)
    ('test', 'preprocessing')
    """
    parts = [p for p in _PARTS.split(path) if p]
    if not parts:
        return None
    dirs, name = [p.lower() for p in parts[:-1]], parts[-1]
    if _TEST_DIRS & set(dirs) or (_TEST_FILE.match(name) and name_only):
        return "test"
    if _EVAL_DIRS & set(dirs) or _EVAL_FILE.search(name):
        return "evaluation"
    if _PRE_DIRS & set(dirs) or _PRE_FILE.search(name):
        return "preprocessing"
    if _SCRIPT_DIRS & set(dirs) or _SCRIPT_FILE.match(name):
        return "script"
    return None


def function_context(name: str) -> str | None:
    """The context a function's name says (``preprocess_image``: preprocessing; ``postprocess``, ``infer``,
    ``_update_metrics``, ``visualize``: evaluation; ``load_resized_weights``: a script that converts weights), or
    None.

    >>> [function_context(n) for n in ("preprocess_video", "_update_metrics", "infer", "forward", "metric_fn",
    ...                                "load_resized_weights", "load_model", "_decode_and_center_crop",
    ...                                "load_own_variables")]
    ['preprocessing', 'evaluation', 'evaluation', None, 'evaluation', 'script', None, 'preprocessing', 'script']
    """
    if _LOAD_FUNCTION.search(name):
        return "script"
    if _PRE_FUNCTION.search(name):
        return "preprocessing"
    if _POST_FUNCTION.search(name):
        return "evaluation"
    return None


def class_context(name: str) -> str | None:
    """The context a class's name says: a post-processor's code runs after the model (evaluation), a
    pre-processor's before it; None for any other class.

    >>> [class_context(n) for n in ("PostProcessPanoptic", "ImagePreprocessor", "Preprocessor", "UNet")]
    ['evaluation', None, 'preprocessing', None]
    """
    m = _CLASS_CONTEXT.match(name)
    if m is None:
        return None
    return "preprocessing" if m.group(1).lower() == "pre" else "evaluation"


def rust_test_lines(code: str) -> set[int]:
    """1-based lines of a Rust source (comments and strings blanked) inside ``#[test]`` functions and
    ``#[cfg(test)]`` items."""
    return set(rust_tests(code))


def rust_tests(code: str) -> dict[int, bool]:
    """{line: whether the innermost test item around it computes gradients (``.backward()``)} for the lines
    of ``#[test]`` functions and ``#[cfg(test)]`` items."""
    lines: dict[int, bool] = {}
    starts = [0] + [m.end() for m in re.finditer(r"\n", code)]
    for m in re.finditer(r"#\s*\[\s*(?:cfg\s*\(\s*test\s*\)|test|tokio::test|rstest)\s*\]", code):
        brace = code.find("{", m.end())
        semi = code.find(";", m.end())
        if brace < 0 or (0 <= semi < brace and "mod" in code[m.end():semi]):
            continue  # `#[cfg(test)] mod tests;`: the module is another file
        depth, i = 0, brace
        while i < len(code):
            if code[i] == "{":
                depth += 1
            elif code[i] == "}":
                depth -= 1
                if depth == 0:
                    break
            i += 1
        first = _line(starts, m.start())
        trains = TRAINS.search(code, m.start(), i) is not None
        for line in range(first, _line(starts, i) + 1):
            lines[line] = trains  # items found later are nested in earlier ones: the innermost wins
    return lines


def _line(starts: list[int], offset: int) -> int:
    lo, hi = 0, len(starts) - 1
    while lo < hi:
        mid = (lo + hi + 1) // 2
        if starts[mid] <= offset:
            lo = mid
        else:
            hi = mid - 1
    return lo + 1
