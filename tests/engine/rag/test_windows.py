"""Windows batched under the padded-token budget and pooled back to one row per text."""

import numpy as np

from engine.rag import windows
from engine.rag.windows import Window, encode_windows, mean_pool, padded


def test_padded_batch_and_mean_pool():
    ids, mask = padded([Window(0, [5, 6, 7]), Window(1, [8])], pad=0)
    assert ids.tolist() == [[5, 6, 7], [8, 0, 0]]
    assert mask.tolist() == [[1, 1, 1], [1, 0, 0]]
    hidden = np.arange(12, dtype=np.float32).reshape(2, 3, 2)
    assert mean_pool(hidden, mask).tolist() == [[2.0, 3.0], [6.0, 7.0]]  # padding excluded


def test_batches_stay_under_the_budget_and_texts_average_their_windows(monkeypatch):
    monkeypatch.setattr(windows, "TOKEN_BUDGET", 40)
    calls = []

    def pooled(ids, mask):
        calls.append(ids.shape)
        return np.stack([[mask[r].sum(), 1.0] for r in range(len(ids))])  # row = (tokens, 1)

    lengths = [12, 3, 30, 7, 7, 20]
    wins = [Window(i % 4, list(range(1, n + 1))) for i, n in enumerate(lengths)]
    out = encode_windows(wins, 5, 2, 0, pooled)
    assert sum(batch for batch, _ in calls) == len(wins)
    assert all(batch * seq <= 40 or batch == 1 for batch, seq in calls)
    # text 0 has windows of 12 and 7 tokens (weights 10 and 5, without start and end); text 4 has none
    expected = np.array([(10 * 12 + 5 * 7) / 15, 1.0])
    assert np.allclose(out[0], expected / np.linalg.norm(expected))
    assert out.dtype == np.float32 and not out[4].any()
    assert encode_windows([], 0, 2, 0, pooled).shape == (0, 2)
