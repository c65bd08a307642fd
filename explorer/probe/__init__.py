"""The probe: a measured compatibility matrix of resize configurations on every runtime release installable here.

``python -m explorer.probe [--runtime NAME ...] [--release V ...] [--current] [--cases SUBSET ...] [--jobs N]
[--venvs DIR] [--out DIR] [--python PY]`` runs every case of :mod:`explorer.probe.cases` on each
chosen runtime release, each release in its own virtualenv (``VENVS/probe-<runtime>-<release>``, created
with ``python3 -m venv`` and pip, reused while its install commands stay the same), compares every output
with the explorer's computation of the same node (:mod:`explorer.probe.compare`) and writes one file per
release under ``explorer/advisor/data/matrix/`` with its provenance (:mod:`explorer.probe.matrix`), then
``docs/compatibility-matrix.md``.  ``--current`` runs only each runtime's current release (the CI subset);
``--python`` runs the cells with an existing interpreter instead of a venv (the file is named by the release
that interpreter has).  ``--list`` lists the adapters and their releases; ``--render`` only rewrites the docs.

The layers (parent side imports the explorer; the child side imports only the standard library and numpy):

* :mod:`~explorer.probe.cases`: the cases as data (plain dicts) and each case's one-node ONNX model and input;
* :mod:`~explorer.probe.calls`: the framework calls as cases (``F.interpolate``, ``tf.image.resize`` ...);
* :mod:`~explorer.probe.runner`: venvs, the child processes, timeouts and crashes (a cell that kills or hangs
  its runtime is recorded as ``crash``/``timeout`` and a new child goes on with the rest);
* :mod:`~explorer.probe.child`: the child's protocol, run by path with the runtime venv's python;
* :mod:`~explorer.probe.compare`: the explorer's output for a case and the comparison;
* :mod:`~explorer.probe.harness`: the parent's loop over releases;
* :mod:`~explorer.probe.matrix`: the committed data (:func:`~explorer.probe.matrix.load`) and the tables.

Writing an adapter
------------------
An adapter is one file ``explorer/probe/runtimes/<name>.py`` that imports nothing from the project, and its
runtime only inside functions (the parent loads the same file to read its declarations).  It declares:

``NAME``
    the runtime's name on the command line and in file names (``onnxruntime``, ``torch-export`` ...);
``PRODUCT``
    the product it measures (a backend id of the advisor where one exists);
``KINDS``
    the case kinds it takes (``("onnx",)``: a case whose ``model_path`` is a one-node ONNX model; an adapter
    of framework calls declares its own kind, ``("torch",)``, whose cases are calls in the explorer's words,
    declared in :mod:`explorer.probe.calls` and merged into :data:`explorer.probe.cases.GROUPS`: their output
    and gradient are compared with :func:`explorer.library_resize` and its backward);
``PACKAGES``
    the distributions whose versions identify a release (recorded in the provenance);
``RELEASES`` and ``CURRENT``
    the releases to probe, oldest first, and the current one (``--current``, the CI subset);
``install(release) -> [[pip arguments], ...]``
    the pip commands that make a release's venv (``[["onnxruntime==1.15.1", "numpy<2"]]``; a list per pip
    run, so that a package can go in with ``--no-deps``);
``REPEATS`` (optional, default 1)
    2 runs each cell twice in the same process and marks it ``unstable`` when the outcome or output changes;
``version() -> str``
    the release installed, as the child sees it (the import of the runtime failing here fails every cell);
``run(case, inputs, cell)``
    one cell: ``inputs["X"]`` is the input (``inputs["G"]`` the upstream gradient for runtimes that train);
    it enters stages with ``with cell.stage("convert" | "load" | "run" | "gradient"):``, reports
    ``cell.output(array)``, ``cell.gradient(array)`` (of ``sum(Y * G)`` with respect to X),
    ``cell.converted(json_able)`` (what the runtime made of the node: OpenVINO's Interpolate attributes,
    ncnn's Interp params ...), ``cell.note(text)``, and ``cell.skip(reason)`` for a case it does not take.
    Any exception is the cell's outcome: its type, first line and full text, at the stage entered last.

The child runs in the adapter's venv, with the case's files and a scratch folder as its working directory;
it never imports the explorer.

>>> from explorer.probe.harness import adapter_paths
>>> paths = adapter_paths()
>>> "onnxruntime" in paths, "torch" in paths, "torch-onnx" in paths
(True, True, True)
"""
