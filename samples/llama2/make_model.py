#!/usr/bin/env python3
"""Write a random checkpoint and tokenizer in llama2.c's formats.

    make_model.py CHECKPOINT TOKENIZER [--config DIM HIDDEN LAYERS HEADS KV_HEADS VOCAB SEQ]
                  [--seed N] [--unshared]

Defaults: stories15M's sizes (288 768 6 6 6 32000 256).  No weights can be
downloaded; these are uniform random values from Python's own generator
(random.Random(seed), the same on every Python 3), so a seed gives the same
files everywhere.

The checkpoint: seven little-endian int32 (dim, hidden_dim, n_layers,
n_heads, n_kv_heads, vocab_size, seq_len; vocab_size negative with
--unshared: the classifier is its own matrix), then f32 weights in
llama2.c's order: token embedding (vocab, dim), attention RMSNorm (layers,
dim), wq (layers, dim, dim), wk and wv (layers, kv_dim, dim), wo (layers,
dim, dim), FFN RMSNorm (layers, dim), w1 (layers, hidden, dim), w2
(layers, dim, hidden), w3 (layers, hidden, dim), final RMSNorm (dim), the
two unused RoPE tables (seq_len * head_size / 2 each), and with --unshared
the classifier (vocab, dim).

The tokenizer: int32 max_token_length, then per token a f32 score, an
int32 length and the bytes.  Tokens 0-2 are <unk>, <s>, </s>; 3-258 the
bytes <0x00>..<0xFF> (llama2.c's byte fallback is id 3 + byte); then the
printable ASCII characters one by one; the rest are concatenations of two
earlier pieces (as BPE merges make them), each unique, a later merge with a
lower score.
"""
import argparse
import random
import struct
import sys
from array import array

STORIES15M = (288, 768, 6, 6, 6, 32000, 256)
MAX_PIECE = 16  # bytes


def floats(rng, n, scale, base=0.0):
    """n uniform values in base +- scale."""
    u = rng.random
    return array("f", [base + (2.0 * u() - 1.0) * scale for _ in range(n)])


def write_checkpoint(path, cfg, rng, unshared):
    dim, hidden, layers, heads, kv_heads, vocab, seq = cfg
    head_size = dim // heads
    kv_dim = dim * kv_heads // heads
    with open(path, "wb") as f:
        f.write(struct.pack("<7i", dim, hidden, layers, heads, kv_heads,
                            -vocab if unshared else vocab, seq))
        parts = [
            floats(rng, vocab * dim, 0.2),                # token embedding
            floats(rng, layers * dim, 0.1, 1.0),          # attention RMSNorm
            floats(rng, layers * dim * dim, dim ** -0.5),  # wq
            floats(rng, layers * kv_dim * dim, dim ** -0.5),  # wk
            floats(rng, layers * kv_dim * dim, dim ** -0.5),  # wv
            floats(rng, layers * dim * dim, dim ** -0.5),  # wo
            floats(rng, layers * dim, 0.1, 1.0),          # FFN RMSNorm
            floats(rng, layers * hidden * dim, dim ** -0.5),  # w1
            floats(rng, layers * dim * hidden, hidden ** -0.5),  # w2
            floats(rng, layers * hidden * dim, dim ** -0.5),  # w3
            floats(rng, dim, 0.1, 1.0),                   # final RMSNorm
            array("f", [0.0] * (seq * head_size)),        # the old RoPE tables
        ]
        if unshared:
            parts.append(floats(rng, vocab * dim, 0.05))
        for p in parts:
            if sys.byteorder != "little":
                p.byteswap()
            p.tofile(f)


def pieces(rng, vocab):
    """vocab pieces as bytes, with their scores."""
    out = [(b"<unk>", 0.0), (b"\n<s>\n", 0.0), (b"\n</s>\n", 0.0)]
    out += [(b"<0x%02X>" % b, 0.0) for b in range(256)]
    chars = [bytes([c]) for c in range(32, 127)]
    out += [(c, -1e6) for c in chars]
    if len(out) > vocab:
        sys.exit(f"make_model.py: the vocabulary needs at least {len(out)} tokens")
    seen = {p for p, _ in out}
    merged = chars[:]
    while len(out) < vocab:
        p = rng.choice(merged) + rng.choice(merged)
        if len(p) > MAX_PIECE or p in seen:
            continue
        seen.add(p)
        merged.append(p)
        out.append((p, -float(len(out))))
    return out


def write_tokenizer(path, vocab, rng):
    toks = pieces(rng, vocab)
    with open(path, "wb") as f:
        f.write(struct.pack("<i", max(len(p) for p, _ in toks)))
        for p, score in toks:
            f.write(struct.pack("<fi", score, len(p)))
            f.write(p)


def main():
    ap = argparse.ArgumentParser(description=__doc__.strip().splitlines()[0])
    ap.add_argument("checkpoint")
    ap.add_argument("tokenizer")
    ap.add_argument("--config", type=int, nargs=7, default=STORIES15M,
                    metavar=("DIM", "HIDDEN", "LAYERS", "HEADS", "KV_HEADS", "VOCAB", "SEQ"))
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--unshared", action="store_true")
    a = ap.parse_args()
    dim, hidden, layers, heads, kv_heads, vocab, seq = a.config
    if (min(a.config) < 1 or dim % heads or (dim // heads) % 2 or heads % kv_heads):
        sys.exit("make_model.py: sizes must be >= 1, dim a multiple of heads with an even "
                 "head size, heads a multiple of kv_heads")
    rng = random.Random(a.seed)
    write_checkpoint(a.checkpoint, a.config, rng, a.unshared)
    write_tokenizer(a.tokenizer, vocab, random.Random(a.seed + 1))


if __name__ == "__main__":
    main()
