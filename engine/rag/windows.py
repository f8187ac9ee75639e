"""Texts cut into token windows, encoded in batches of similar length, pooled back to one row per text.

Used by our BERT encoder route (``bert_onnx``, for e5): a route gives ``pooled``,
the mean-pooled last hidden states of a padded batch, and this module does the rest.
Batching windows of similar length under a padded-token budget keeps padding (wasted
arithmetic) small whatever the mix of chunk lengths.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

TOKEN_BUDGET = 4096  # padded tokens per encoder call

# (ids (batch, seq) int64, mask (batch, seq) float32: 1 for a token, 0 for padding) -> (batch, dim)
Pooled = Callable[[np.ndarray, np.ndarray], np.ndarray]


@dataclass
class Window:
    text: int  # index of the text it belongs to
    ids: list[int]  # with the model's start and end tokens


def padded(windows: list[Window], pad: int) -> tuple[np.ndarray, np.ndarray]:
    """Token ids padded with ``pad`` to the longest window, and the mask of real tokens."""
    longest = max(len(win.ids) for win in windows)
    ids = np.full((len(windows), longest), pad, dtype=np.int64)
    mask = np.zeros((len(windows), longest), dtype=np.float32)
    for row, win in enumerate(windows):
        ids[row, : len(win.ids)] = win.ids
        mask[row, : len(win.ids)] = 1.0
    return ids, mask


def mask_bias(mask: np.ndarray) -> np.ndarray:
    """The attention bias of a padded batch, (batch, 1, 1, seq): 0 for a token, -1e4 for padding."""
    return ((1.0 - mask) * -1e4)[:, None, None, :].astype(np.float32)


def mean_pool(hidden: np.ndarray, mask: np.ndarray) -> np.ndarray:
    """Mean of each row's hidden states over its real tokens (padding excluded)."""
    return (hidden * mask[..., None]).sum(axis=1) / mask.sum(axis=1, keepdims=True)


def encode_windows(windows: list[Window], n_texts: int, dim: int, pad: int, pooled: Pooled) -> np.ndarray:
    """L2-normalised float32 rows, one per text: its windows' pooled vectors averaged by token count."""
    out = np.zeros((n_texts, dim), dtype=np.float64)
    if not n_texts:
        return out.astype(np.float32)
    order = sorted(range(len(windows)), key=lambda k: len(windows[k].ids))
    weights = np.zeros(n_texts)
    start = 0
    while start < len(order):  # batches of similar length under a padded-token budget
        end = start + 1
        while end < len(order) and (end - start + 1) * len(windows[order[end]].ids) <= TOKEN_BUDGET:
            end += 1
        group = [windows[k] for k in order[start:end]]
        for win, row in zip(group, pooled(*padded(group, pad)), strict=True):
            weight = max(len(win.ids) - 2, 1)
            out[win.text] += weight * row
            weights[win.text] += weight
        start = end
    out /= np.maximum(weights, 1)[:, None]
    out /= np.maximum(np.linalg.norm(out, axis=1, keepdims=True), 1e-12)
    return out.astype(np.float32)
