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

# ------------------------------------------------------------------------------------------------ images
#: Largest file accepted for decoding, in bytes.
MAX_FILE_BYTES = 32 * 2**20
#: Largest image (width x height) ever decoded: the decompression-bomb guard, checked on the header before any
#: pixel is decoded (a small PNG can expand to gigabytes).
MAX_PIXELS = 40_000_000
#: Smallest side accepted.
MIN_SIDE = 2

# ------------------------------------------------------------------------------------------------ the explorer
#: Longest side of an image the explorer works on (larger uploads are reduced, and say so).
APP_MAX_SIDE = 512
#: Most samples of the 1-D axis the Kernels tab draws.
APP_MAX_LENGTH = 64

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

# ------------------------------------------------------------------------------------------------ the linter
#: Largest source or configuration file the linter reads (bytes); larger files are skipped with a warning
#: (generated code and data dumps, not hand-written resize calls).  ``.onnx`` files are read by the scan,
#: within MAX_MODEL_BYTES.
LINT_MAX_FILE_BYTES = 4 * 2**20
