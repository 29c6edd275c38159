"""Peer of ServeForwardRun: TrainGpt's default-size GPT (train_gpt.py, seed 1337: ServeModel's demo model's weights)
as torch_serve.py runs it (inference_mode, the LM head on the last position), for batches of 1, 8 and 64 requests of
4 and 16 tokens; the median milliseconds per forward of each.

    python benchmarks/peers/torch_serve_forward.py   (PyTorch's default OpenMP settings; OMP_WAIT_POLICY=passive
    makes the batch-64 forward 1.7x slower here)
"""
import torch
import torch.nn.functional as F

import peer_timing
import train_gpt


def main():
    vocab, _, _ = train_gpt.load_corpus()
    torch.manual_seed(1337)
    model = train_gpt.GPT(train_gpt.GPTConfig(len(vocab), 128, 4, 4, 128)).eval()
    g = torch.Generator().manual_seed(0)
    for tokens in (4, 16):
        for batch in (1, 8, 64):
            x = torch.randint(0, len(vocab), (batch, tokens), generator=g)

            def forward():
                with torch.inference_mode():
                    return F.linear(model(x)[:, -1, :], model.lm_head.weight)

            peer_timing.measure(f"serve_forward:tokens={tokens},batch={batch}", forward, warmup=5,
                                runs=max(20, 1600 // batch))


if __name__ == "__main__":
    main()
