"""Every size and byte limit of the project, in one place.

Memory is bounded by bytes, never by entry counts, and checked before anything is allocated.  The engine,
the image loader and the explorer read their limits here; change a limit here and nowhere else.
"""

# ------------------------------------------------------------------------------------------------ the engine
#: Largest intermediate (bytes) kept between calls for reuse: fresh large allocations are slow and erratic
#: (page faults), so the intermediate of a two-pass resize lives in a per-thread buffer.
SCRATCH_BYTES = 256 * 2**20
#: A two-pass resize whose first pass shrinks the rows of planes larger than this (bytes) runs in tiles of
#: output rows: the intermediate is a tile, not a whole plane, and stays in cache.
TILE_PLANE_BYTES = 4 * 2**20
#: Bytes of one tile of intermediate rows.
TILE_BYTES = 2**20
#: Below this many bytes a resize is not worth a look at /proc/meminfo before it allocates.
CHECK_FROM_BYTES = 2**26
#: Plans (the weights of one axis) kept between calls, in bytes: the sum of every cached plan's arrays,
#: including the dense blocks and transposes they build for their contractions.
PLAN_CACHE_BYTES = 128 * 2**20
#: A plan larger than this share of :data:`PLAN_CACHE_BYTES` is not cached (nor are its dense blocks kept), so
#: one huge plan cannot push out every other.
PLAN_CACHE_SHARE = 0.25
#: Temporaries of building a plan are made in chunks of output rows (and, for very wide kernels, of taps) of at
#: most this many bytes.
PLAN_CHUNK_BYTES = 32 * 2**20
#: Largest dense block of a band's contraction, in bytes (blocks are cut into fewer rows above it).
BLOCK_BYTES = 2**20
#: Temporaries of a band's contraction are made this many bytes at a time: the gathered taps and products of
#: the tap-by-tap contraction (an input holding NaN or infinity: NaN reaches only the outputs that read it), and
#: the index arrays of the scatter that fills the dense blocks.
TEMPORARY_TILE_BYTES = 4 * 2**20
#: Most kernel taps one plan evaluates (outputs x taps per output).  It bounds time, not memory (the taps are
#: evaluated in chunks): a kernel scale far from ``size / input length`` makes every output read millions of
#: inputs, minutes of work for a few numbers.
MAX_PLAN_TAPS = 2**27
#: Largest ``|cubic_coeff_a|``: the Keys weights sum to one for every ``a`` only up to ``|a| * 1e-16``, so far
#: beyond it the weights (and the outputs) lose float32 precision.
MAX_CUBIC_COEFF_A = 1e6
#: Largest zero padding (OpenVINO's Interpolate ``pads_begin`` / ``pads_end``) on either side of one axis; the
#: padded axis's plan is bounded by the memory checks like any other.
MAX_PADS = 2**31 - 1

# ------------------------------------------------------------------------------------------------ images
#: Largest file accepted for decoding, in bytes (at most this many bytes are ever read).
MAX_FILE_BYTES = 32 * 2**20
#: Largest image (width x height) ever decoded: the decompression-bomb guard, checked on the header before any
#: pixel is decoded (a small PNG can expand to gigabytes).
MAX_PIXELS = 40_000_000
#: Most bytes decoding one image may allocate: the decoded pixels plus the float32 result, computed from the
#: header (size, bands, bit depth) before any pixel is decoded.
MAX_DECODE_BYTES = 2**30
#: Smallest side accepted.
MIN_SIDE = 2

# ------------------------------------------------------------------------------------------------ the explorer
#: Longest side of an image the explorer works on: an upload is kept whole up to 1024 x 1024 and reduced
#: beyond (by an area average, and the app says so).
APP_MAX_SIDE = 1024
#: Most samples of the 1-D axis the Kernels tab draws.
APP_MAX_LENGTH = 64
#: Largest single output image (float32, every channel) the explorer computes; a scale or size whose output
#: is larger is refused with a message before anything is allocated (4000 x 4000 RGB is 183 MiB).
APP_MAX_OUTPUT_BYTES = 256 * 2**20
#: Bytes of results (forward outputs, coverage maps) the explorer keeps for reuse between tabs and changes.
APP_CACHE_BYTES = 768 * 2**20
#: A cached result at least this large is dropped as soon as its output size is no longer shown.
APP_CACHE_KEEP_BYTES = 16 * 2**20
#: The Libraries, Backends (measured fixes) and Pick tabs compare many calls: they measure on a working copy
#: whose input and output each have at most this many pixels (a centred crop of the input, at the same
#: scale), and their captions say so.
APP_WORK_PIXELS = 512 * 512
#: Bytes of a temporary the display path may allocate at once (overviews and differences run in row bands).
APP_BAND_BYTES = 8 * 2**20

# ------------------------------------------------------------------------------------------------ model scans
#: Largest ONNX file ``explorer.scan`` reads (bytes; weights kept in external data files are never read).
#: Protocol buffers cannot hold more than 2 GiB in one message.
MAX_MODEL_BYTES = 2**31 - 1
#: Largest .onnx upload the explorer's Model entry accepts (the browser sends the whole file to the kernel).
APP_MAX_MODEL_BYTES = 64 * 2**20
#: Most bytes of constants a scan evaluates to work out a computed ``scales``/``sizes`` input (shape
#: arithmetic such as Shape -> Slice -> Concat needs a few bytes; a larger subgraph is left unevaluated).
FOLD_BYTES = 2**20
#: Most bytes of one float32 plane a scan resizes to measure what an importer computes against ONNX Runtime
#: (the input and output planes of one node, batch and channels set to 1).
MEASURE_BYTES = 64 * 2**20

# ------------------------------------------------------------------------------------------------ the advisor
#: Longest error text diagnose reads, in characters (a pasted log larger than this is refused, not truncated).
DIAGNOSE_MAX_CHARS = 64 * 2**20
#: diagnose reads a text in chunks of this many characters, so its word lists stay small whatever the text.
DIAGNOSE_CHUNK_CHARS = 2**20
#: A text up to this long is read whole; of a longer one diagnose reads what an engineer reads: the head, the
#: tail and the surroundings of the lines that report an error (the sizes below), so its work past the one
#: scan for those lines does not grow with the length of the log.
DIAGNOSE_WHOLE_CHARS = 64 * 2**10
DIAGNOSE_HEAD_CHARS = 8 * 2**10
DIAGNOSE_TAIL_CHARS = 32 * 2**10
#: characters read on each side of an error word, and how many such places (the last ones) are read
DIAGNOSE_CONTEXT_CHARS = 1000
DIAGNOSE_MAX_PLACES = 200
#: Most output pixels of the zone plate that :func:`explorer.pick` measures aliasing and sharpness on: a
#: resize that enlarges it beyond is measured on a smaller zone plate (one holds every frequency at any size).
QUALITY_MAX_OUTPUT_PIXELS = 512 * 512

# ------------------------------------------------------------------------------------------------ the linter
#: Largest source or configuration file the linter reads (bytes); larger files are skipped with a warning
#: (generated code and data dumps, not hand-written resize calls).  ``.onnx`` files are read by the scan,
#: within MAX_MODEL_BYTES.
LINT_MAX_FILE_BYTES = 4 * 2**20
#: Largest lint baseline file read (bytes), and how deeply its JSON may nest (a baseline is a flat list).
LINT_MAX_BASELINE_BYTES = 16 * 2**20
JSON_MAX_DEPTH = 64
#: Longest snippet of a source line a lint report quotes (characters, in JSON and SARIF as in text).
LINT_SNIPPET_CHARS = 200

# ------------------------------------------------------------------------------------------------ model scans (work)
#: Most Resize/Upsample nodes one scan analyses: the nodes past it are listed with a warning, not analysed
#: (each takes tens of milliseconds: every library preset's weights are built for it).  Nodes with the same
#: attributes, shapes and sizes are analysed once.
SCAN_MAX_NODES = 1000
#: Seconds one scan spends analysing nodes; the nodes left when it runs out are listed with a warning.
SCAN_MAX_SECONDS = 60.0
#: Seconds ONNX Runtime's symbolic shape inference may take on one model (sympy can spend minutes simplifying a
#: detection model's shape arithmetic); past them the nodes whose shapes it would give are listed unscanned.
SCAN_SHAPE_SECONDS = 20.0
#: Most nodes of a model (all nodes, subgraphs included) a scan reads; a larger graph is refused.
SCAN_MAX_GRAPH_NODES = 1_000_000
#: Largest opset a model may declare (the newest ONNX opset is in the twenties).
MAX_OPSET = 1000

# ------------------------------------------------------------------------------------------------ the explorer (links)
#: Largest configuration file the explorer opens (bytes): an exported configuration is a few hundred bytes.
APP_MAX_CONFIG_BYTES = 2**20
#: Longest query string a link may carry (characters): a link's settings take a few hundred.
APP_MAX_QUERY_CHARS = 8192

# ------------------------------------------------------------------------------------------------ lengths
#: Longest axis any entry point takes (samples): far past any memory, and small enough that indices fit int64
#: and coordinates are exact in float64 (2**53); a longer one is refused before any arithmetic.
MAX_AXIS_LENGTH = 2**48
