"""The linter's Rust and configuration readers (fixtures written for this test, one per pattern)."""

from __future__ import annotations

import textwrap

import pytest

from explorer.advisor.lint.config import read_config
from explorer.advisor.lint.rust import lex, read_rust, use_names


def rust(src: str):
    return read_rust(textwrap.dedent(src).lstrip("\n"), "fixture.rs")


def test_options_inside_an_interpolate_call_are_that_call():
    found = rust('''
        use burn::tensor::module::interpolate;
        use burn::tensor::ops::{InterpolateMode, InterpolateOptions};

        fn to_299<B: Backend>(x: Tensor<B, 4>) -> Tensor<B, 4> {
            interpolate(
                x,
                [299, 299],
                InterpolateOptions::new(InterpolateMode::Bilinear),
            )
        }
    ''')
    assert [(s.line, s.api, s.mode.values, s.align_corners.values) for s in found] == [
        (5, "burn::tensor::module::interpolate", ("Bilinear",), (None,))]


def test_options_built_first_are_a_site_where_built():
    found = rust('''
        let opts = InterpolateOptions::new(InterpolateMode::NearestExact).with_align_corners(false);
        let y = module::interpolate(x, [64, 64], opts.clone());
    ''')
    assert [(s.line, s.mode.values, s.align_corners.values) for s in found] == [(1, ("NearestExact",), (False,))]


def test_struct_literal_and_struct_fields_elsewhere():
    found = rust('''
        let y = interpolate(
            x,
            [16, 16],
            InterpolateOptions {
                mode: InterpolateMode::Nearest,
                align_corners: false,
            },
        );
        pub struct UpConfig { pub mode: InterpolateMode }
        impl Default for UpConfig { fn default() -> Self { Self { mode: InterpolateMode::Nearest } } }
        let InterpolateOptions { mode, .. } = options;
    ''')
    assert [(s.line, s.mode.values, s.align_corners.values) for s in found] == [(1, ("Nearest",), (False,))]


def test_burn_nn_config_chain_with_its_own_enum():
    found = rust('''
        use burn::nn::interpolate::{Interpolate2dConfig, InterpolateMode};
        let up = Interpolate2dConfig::new()
            .with_scale_factor(Some([1.5, 1.5]))
            .with_mode(InterpolateMode::Cubic)
            .init();
        let same = Interpolate1dConfig::new().with_output_size(Some(8)).init();
    ''')
    cubic, default = found
    assert (cubic.line, cubic.mode.values, cubic.scale_factor.values, cubic.rank.values) == (
        2, ("Bicubic",), (True,), (2,))
    assert (default.line, default.mode.values, default.mode.how, default.rank.values) == (
        6, ("Nearest",), "api-default", (1,))


def test_aliases_and_glob_imports():
    found = rust('''
        use burn::tensor::ops::InterpolateMode as Mode;
        use burn::tensor::ops::{InterpolateOptions as Opts};

        let o = Opts::new(Mode::NearestExact);
        let p = burn::tensor::ops::InterpolateOptions::new(burn::tensor::ops::InterpolateMode::Lanczos3);
    ''')
    assert [(s.line, s.mode.values) for s in found] == [(4, ("NearestExact",)), (5, ("Lanczos3",))]
    glob = rust('''
        use burn::tensor::ops::InterpolateMode::*;
        let o = InterpolateOptions::new(NearestExact);
    ''')
    assert [s.mode.values for s in glob] == [("NearestExact",)]
    assert use_names("use a::b::{c, d as e, f::{g, *}};") == {"c": "a::b::c", "e": "a::b::d", "g": "a::b::f::g",
                                                               "a::b::f::*": "a::b::f::*"}


def test_match_arms_comments_strings_templates_and_plumbing_are_not_sites():
    found = rust('''
        // let o = InterpolateOptions::new(InterpolateMode::NearestExact);
        /* InterpolateOptions::new(InterpolateMode::Lanczos3) */
        let s = "InterpolateOptions::new(InterpolateMode::NearestExact)";
        let r = r#"InterpolateOptions::new(InterpolateMode::NearestExact)"#;
        #[config(default = "InterpolateMode::NearestExact")]
        pub mode: InterpolateMode,
        match (options.mode, dtype) {
            (InterpolateMode::Nearest, DType::F32) => nearest_f32(x),
            (InterpolateMode::NearestExact, _) => panic!("not supported"),
            InterpolateMode::Bilinear | InterpolateMode::Bicubic => todo!(),
        }
        let nearest = matches!(options.mode, InterpolateMode::Nearest);
        fn interpolate(x: FloatTensor<B>, size: [usize; 2], options: InterpolateOptions) -> FloatTensor<B> {
            B::interpolate(x, size, options)
        }
        let code = quote! {
            let y = burn::tensor::module::interpolate(x, #size,
                burn::tensor::ops::InterpolateOptions::new(#mode).with_align_corners(#ac));
        };
        let c = 'x';
        fn f<'a>(v: &'a str) -> &'a str { v }
    ''')
    assert found == []


def test_a_variable_mode_is_unknown_and_a_let_bound_one_resolves():
    found = rust('''
        let mode = InterpolateMode::Bicubic;
        let a = InterpolateOptions::new(mode);
        fn forward(&self, x: Tensor<B, 4>) -> Tensor<B, 4> {
            interpolate(x, self.size, InterpolateOptions::new(self.mode.clone()))
        }
    ''')
    assert found[0].mode.values == ("Bicubic",)
    assert found[1].mode.values == () and found[1].line == 4


def test_lexer_keeps_lines_and_columns():
    src = 'let a = "x\ny"; // c\nlet b = 1; /* d\ne */ let c = 2;\n'
    code, comments = lex(src)
    assert len(code) == len(src) and code.count("\n") == src.count("\n")
    assert comments[2] == "c" and "let c = 2;" in code


def test_candle_methods():
    found = rust('''
        use candle_core::Tensor;
        let y = x.upsample_nearest2d(64, 64)?;
        let z = x.upsample_bilinear2d(64, 64, true)?;
        fn upsample_nearest2d(&self, h: usize, w: usize) -> Result<Self> { todo!() }
    ''')
    assert [(s.line, s.library, s.mode.values, s.align_corners.values) for s in found] == [
        (2, "candle", ("upsample_nearest2d",), (None,)), (3, "candle", ("upsample_bilinear2d",), (True,))]


# ------------------------------------------------------------------------------------------- configuration
def config(src: str, path="cfg.yaml"):
    return read_config(textwrap.dedent(src).lstrip("\n"), path)


def test_instantiated_transform_with_an_integer_code():
    found = config('''
        transforms:
          - target: torchvision.transforms.Resize
            params:
              size: 256
              interpolation: 3
          - target: torchvision.transforms.ToTensor
        other:
          interpolation: 3
    ''')
    assert [(s.line, s.api, s.mode.values, s.antialias.values, s.runs) for s in found] == [
        (2, "torchvision.transforms.Resize", ("bicubic",), (True,), "host")]


def test_mode_values_quoted_or_not_in_every_format():
    yaml = config("decoder:\n  upsample_mode: nearest-exact   # the default\n  mode: train\n  name: 'x'\n")
    assert [(s.line, s.mode.values, s.kind) for s in yaml] == [(2, ("nearest-exact",), "config")]
    json_ = config('{"resize_mode": "bicubic", "mode": "fan_in", "interpolation_type": "linear"}', "c.json")
    assert [s.mode.values for s in json_] == [("bicubic",), ("linear",)]
    toml = config('[model]\nupsample = "NearestExact"\nname = "interpolate_ops"\n', "c.toml")
    assert [(s.library, s.mode.values) for s in toml] == [("burn", ("NearestExact",))]
    assert config('features = ["interpolate", "resize"]\n', "Cargo.toml") == []


def test_a_long_token_is_read_in_linear_time():
    """Tokens of 300,000 characters: a linear reader takes well under a second, a quadratic one (a regular
    expression that backtracks) hours.  The generous guard below only catches the second; it is no time budget."""
    token = "a" * 300_000
    found = _finishes(lambda: read_config(f'{{"{token}": "{token}", "upsample_{token}": 1}}' + "\n", "big.json"))
    assert found == []
    found = _finishes(lambda: read_config(("resize_" + "x" * 300_000 + " " + "=" * 50_000 + "\n") * 3, "big.cfg"))
    assert found == []


def _finishes(fn, guard_s: float = 300.0):
    """``fn()``'s result; fails if it has not returned after ``guard_s`` seconds (it hangs)."""
    import threading

    result = []
    worker = threading.Thread(target=lambda: result.append(fn()), daemon=True)
    worker.start()
    worker.join(guard_s)
    assert result, f"still reading after {guard_s:.0f} s: the reader is not linear in the token's length"
    return result[0]


@pytest.mark.parametrize("text", ["mode: 'bilinear'", "resample = 'BICUBIC'", '"interpolation": "INTER_AREA"'])
def test_each_library_spelling_is_recognised(text):
    (site,) = read_config(text + "\n", "c.yaml")
    assert site.mode.values[0] in ("bilinear", "BICUBIC", "INTER_AREA")


TCH = """use tch::{nn, Tensor};
fn up(xs: &Tensor, h: i64, w: i64) -> Tensor {
    let a = xs.upsample_nearest2d([2 * h, 2 * w], 2.0, 2.0);
    let b = xs.upsample_bicubic2d([h, w], false, None, None);
    let c = Tensor::upsample_bilinear2d(&a, &[h, w], true, None, None);
    let d = xs.f_internal_upsample_nearest_exact2d([h, w], None, None).unwrap();
    xs.upsample_nearest2d_vec(None, Some(&[1.5, 1.5][..]))
}
"""


def test_tch_calls_are_pytorchs_ops():
    sites = {s.line: s for s in rust(TCH)}
    assert {line: (s.library, s.mode.values, s.rank.value) for line, s in sites.items()} == {
        3: ("torch", ("nearest",), 2), 4: ("torch", ("bicubic",), 2), 5: ("torch", ("bilinear",), 2),
        6: ("torch", ("nearest-exact",), 2), 7: ("torch", ("nearest",), 2)}
    assert sites[4].align_corners.values == (False,) and sites[5].align_corners.values == (True,)
    assert sites[3].scale_factor.values == (False,) and sites[7].scale_factor.values == (True,)


def test_tch_bindings_and_a_candle_like_core_are_told_apart_by_their_signatures():
    # tch-rs's own crate (no `use tch`): a size list and the scales; its binding of the op is not a use of it
    binding = """impl Tensor {
    pub fn upsample_nearest2d(&self, output_size: impl IntList, scales_h: impl Into<Option<f64>>,
                              scales_w: impl Into<Option<f64>>) -> Tensor {
        self.f_upsample_nearest2d(output_size, scales_h, scales_w).unwrap()
    }
}
fn darknet(xs: &Tensor, h: i64, w: i64) -> Tensor { xs.upsample_nearest2d([2 * h, 2 * w], 2.0, 2.0) }
"""
    assert [(s.line, s.library) for s in rust(binding)] == [(7, "torch")]
    # a project's vendored candle core: the sizes alone, a Result
    core = """use my_core::{Result, Tensor};
fn forward(xs: &Tensor, h: usize, w: usize) -> Result<Tensor> {
    xs.upsample_nearest2d(h * 2, w * 2)
}
"""
    assert [(s.line, s.library, s.api) for s in rust(core)] == [(3, "candle", "candle::Tensor::upsample_nearest2d")]
