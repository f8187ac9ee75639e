"""What ``bert_bf16.native`` asks of the machine before the bfloat16 route is taken."""

import torch

from engine.rag import bert_bf16


def test_native_needs_the_cpu_instructions_and_onednn(monkeypatch):
    monkeypatch.setattr(torch.cpu, "_is_avx512_bf16_supported", lambda: True)
    monkeypatch.setattr(torch.cpu, "_is_amx_tile_supported", lambda: False)
    monkeypatch.setattr(torch.backends.mkldnn, "is_available", lambda: True)
    assert bert_bf16.native()
    monkeypatch.setattr(torch.backends.mkldnn, "is_available", lambda: False)
    assert not bert_bf16.native()  # bfloat16 GEMM would not be oneDNN's
    monkeypatch.setattr(torch.backends.mkldnn, "is_available", lambda: True)
    monkeypatch.setattr(torch.cpu, "_is_avx512_bf16_supported", lambda: False)
    assert not bert_bf16.native()  # torch would emulate bfloat16, slower than float32
    monkeypatch.setattr(torch.cpu, "_is_amx_tile_supported", lambda: True)
    assert bert_bf16.native()
    monkeypatch.delattr(torch.cpu, "_is_amx_tile_supported")
    monkeypatch.delattr(torch.cpu, "_is_avx512_bf16_supported")
    assert not bert_bf16.native()  # a torch without these checks: float32


def test_without_torch_there_is_no_bfloat16_route(monkeypatch):
    monkeypatch.setattr(bert_bf16, "find_spec", lambda name: None)
    assert not bert_bf16.native()
