#!/usr/bin/env python3
"""Write a small checkpoint for decoder_ckpt.c, in llama2.c's layout.

    make_checkpoint.py PATH DIM HIDDEN_DIM N_LAYERS N_HEADS VOCAB SEQ_LEN

The header is seven 32-bit ints (dim, hidden_dim, n_layers, n_heads,
n_kv_heads, vocab_size, seq_len; n_kv_heads equals n_heads), then the f32
weights in llama2.c's order: token embedding, attention RMSNorm weights, wq,
wk, wv, wo, FFN RMSNorm weights, w1, w2, w3, final RMSNorm weight.  The
weights are small deterministic values; the norms start at 1.
"""
import struct
import sys


def main():
    if len(sys.argv) != 8:
        sys.exit(__doc__.strip().splitlines()[2].strip())
    path = sys.argv[1]
    dim, hidden, layers, heads, vocab, seq = (int(a) for a in sys.argv[2:])
    if min(dim, hidden, layers, heads, vocab, seq) < 1 or dim % (2 * heads):
        sys.exit("make_checkpoint.py: sizes must be >= 1 and dim a multiple of 2 * n_heads")
    state = 12345

    def weights(n):
        nonlocal state
        out = []
        for _ in range(n):
            state = (state * 1664525 + 1013904223) % 2**32
            out.append(((state >> 8) / 16777216.0 - 0.5) * 0.25)
        return out

    parts = [weights(vocab * dim), [1.0] * (layers * dim)]
    parts += [weights(layers * dim * dim) for _ in range(4)]
    parts += [[1.0] * (layers * dim), weights(layers * hidden * dim),
              weights(layers * dim * hidden), weights(layers * hidden * dim), [1.0] * dim]
    with open(path, "wb") as f:
        f.write(struct.pack("<7i", dim, hidden, layers, heads, heads, vocab, seq))
        for p in parts:
            f.write(struct.pack("<%df" % len(p), *p))


if __name__ == "__main__":
    main()
