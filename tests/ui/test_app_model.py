"""The Backends tab's Model entry: upload an .onnx file, the nodes and their findings follow the app's backend."""

from __future__ import annotations

import datetime

import numpy as np
import pytest

pytest.importorskip("ipywidgets")
onnx = pytest.importorskip("onnx")
import matplotlib

matplotlib.use("Agg")

from onnx_models import resize_model

from explorer.ui.app import (
    App,
    model_panel,
)

NOW = datetime.datetime(2026, 1, 1, tzinfo=datetime.UTC)
IMAGE = np.random.default_rng(5).random((32, 36, 3)).astype(np.float32)


def upload(widget, name, data):
    widget.value = ({"name": name, "type": "application/octet-stream", "size": len(data),
                     "content": memoryview(data), "last_modified": NOW},)


@pytest.fixture
def app():
    app = App(IMAGE)
    app.set(tab="backends")
    return app


def model_bytes():
    antialiased = resize_model((1, 3, 12, 12), op_version=18, sizes=(1, 3, 5, 5), mode="linear", antialias=1,
                               exclude_outside=1, name="down_aa")
    return antialiased.SerializeToString()


def test_upload_lists_nodes_and_findings_for_the_apps_backend(app):
    panel = app.tabs["backends"].model
    assert "explorer-model-upload" in panel.upload.get_state()["_dom_classes"]
    upload(panel.upload, "unet.onnx", model_bytes())
    text = panel.table.value
    assert "unet.onnx" in text and "down_aa" in text and "torch" in text
    assert "1×3×12×12 → 1×3×5×5" in text
    app.set(backend="burn-tch", version="0.20.1", training=True)
    text = panel.table.value
    assert panel.result.backend == "burn-tch" and panel.result.errors == 1
    assert "antialias other than 0 is not supported" in text and "#b00000" in text


def test_a_file_that_is_not_a_model_keeps_the_previous_one(app):
    panel = app.tabs["backends"].model
    upload(panel.upload, "unet.onnx", model_bytes())
    upload(panel.upload, "notes.onnx", b"these are notes")
    assert panel.error.startswith("notes.onnx: ") and "is not an ONNX model" in panel.table.value
    assert panel.name == "unet.onnx" and "down_aa" in panel.table.value


def test_a_file_over_the_limit_is_refused_before_reading(app, monkeypatch):
    monkeypatch.setattr(model_panel, "APP_MAX_MODEL_BYTES", 100)
    panel = app.tabs["backends"].model
    upload(panel.upload, "big.onnx", model_bytes())
    assert panel.result is None and "more than the explorer reads" in panel.table.value
