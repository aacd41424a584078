#!/usr/bin/env python3
"""train_gpt2.py: the PyTorch twin of train_gpt2.c -- the same token file,
the same init, the same GPT-2 (layernorm, causal self-attention, tanh gelu
MLP, tied head), the backward by autograd, AdamW written with the in-place
ops torch.optim.AdamW uses -- printing its losses in the C program's
format.  tests/fixtures/train_gpt2_losses.txt is its output:

    /usr/bin/python3 samples/train/train_gpt2.py > tests/fixtures/train_gpt2_losses.txt
"""
import math

import torch
import torch.nn.functional as F

V, T, B, C, NH, L = 32, 8, 2, 16, 2, 2
HS, H, BT = C // NH, 4 * C, B * T
N_TOKENS, N_VAL, VAL_BATCHES, EVAL_EVERY, STEPS = 1024, 256, 2, 5, 10
LR, BETA1, BETA2, EPS, WEIGHT_DECAY, LN_EPS = 1e-2, 0.9, 0.999, 1e-8, 0.01, 1e-5
# per block: (name, shape); a shape of one number is a vector
LAYER = [("ln1w", (C,)), ("ln1b", (C,)), ("qkvw", (C, 3 * C)), ("qkvb", (3 * C,)),
         ("apw", (C, C)), ("apb", (C,)), ("ln2w", (C,)), ("ln2b", (C,)),
         ("fcw", (C, H)), ("fcb", (H,)), ("fpw", (H, C)), ("fpb", (C,))]


def layout():
    """The parameters in the flat buffer's order: (name, shape)."""
    out = [("wte", (V, C)), ("wpe", (T, C))]
    for l in range(L):
        out += [("%s%d" % (n, l), s) for n, s in LAYER]
    return out + [("lnfw", (C,)), ("lnfb", (C,))]


def tokens():
    """make_tokens() of train_gpt2.c: the same 32-bit LCG and rule."""
    out, state, tok = [], 4242, 1
    for _ in range(N_TOKENS):
        state = (state * 1103515245 + 12345) & 0xFFFFFFFF
        tok = (state >> 8) % V if (state >> 16) % 6 == 0 else (tok * 7 + 5) % V
        out.append(tok)
    return torch.tensor(out, dtype=torch.int64)


def init():
    vals = []
    for name, shape in layout():
        n = math.prod(shape)
        if name.startswith("ln") and name[3] == "w":
            vals += [1.0] * n
        elif len(shape) == 1:
            vals += [0.0] * n
        else:
            base = len(vals)
            vals += [float(0.02 * math.sin(0.37 * (base + i) + 1.0)) for i in range(n)]
    return torch.tensor(vals, dtype=torch.float32)


def forward(p, x, y):
    names = layout()
    w = dict(zip([n for n, _ in names],
                 [t.view(s) for t, (_, s) in zip(torch.split(p, [math.prod(s) for _, s in names]), names)]))
    mask = torch.arange(T).view(T, 1) < torch.arange(T).view(1, T)
    h = (w["wte"][x].view(B, T, C) + w["wpe"]).view(BT, C)
    for l in range(L):
        g = lambda n: w["%s%d" % (n, l)]
        ln1 = F.layer_norm(h, (C,), g("ln1w"), g("ln1b"), LN_EPS)
        qkv = (ln1 @ g("qkvw") + g("qkvb")).view(B, T, 3 * C)
        q, k, v = [qkv[:, :, i * C:(i + 1) * C].view(B, T, NH, HS).transpose(1, 2) for i in range(3)]
        pre = (q @ k.transpose(2, 3)) * (1.0 / math.sqrt(HS))
        att = torch.softmax(pre.masked_fill(mask, float("-inf")), 3)
        yv = (att @ v).transpose(1, 2).reshape(BT, C)
        res1 = yv @ g("apw") + g("apb") + h
        ln2 = F.layer_norm(res1, (C,), g("ln2w"), g("ln2b"), LN_EPS)
        fch = ln2 @ g("fcw") + g("fcb")
        h = F.gelu(fch, approximate="tanh") @ g("fpw") + g("fpb") + res1
    lnf = F.layer_norm(h, (C,), w["lnfw"], w["lnfb"], LN_EPS)
    return F.cross_entropy(lnf @ w["wte"].t(), y, ignore_index=-100)


def batch(data, pos):
    if pos + BT + 1 > len(data):
        pos = 0
    return data[pos:pos + BT], data[pos + 1:pos + BT + 1], pos + BT


def main():
    torch.set_num_threads(1)
    flat = init()
    m, v = torch.zeros_like(flat), torch.zeros_like(flat)
    data = tokens()
    train, val = data[:N_TOKENS - N_VAL], data[N_TOKENS - N_VAL:]
    pos = 0
    for step in range(1, STEPS + 1):
        x, y, pos = batch(train, pos)
        p = flat.clone().requires_grad_(True)
        loss = forward(p, x, y)
        loss.backward()
        grad = p.grad
        with torch.no_grad():
            bc1, bc2 = 1.0 - BETA1 ** step, 1.0 - BETA2 ** step
            flat.mul_(1.0 - LR * WEIGHT_DECAY)
            m.lerp_(grad, 1.0 - BETA1)
            v.mul_(BETA2)
            v.addcmul_(grad, grad, value=1.0 - BETA2)
            denom = v.sqrt().div_(torch.tensor(math.sqrt(bc2), dtype=torch.float32)).add_(EPS)
            flat.addcdiv_(m, denom, value=-LR / bc1)
        print("step %d loss %.9g" % (step, loss.item()))
        if step % EVAL_EVERY == 0:
            with torch.no_grad():
                vpos, total = 0, 0.0
                for _ in range(VAL_BATCHES):
                    vx, vy, vpos = batch(val, vpos)
                    total += forward(flat, vx, vy).item()
            print("val %d loss %.9g" % (step, total / VAL_BATCHES))


if __name__ == "__main__":
    main()
