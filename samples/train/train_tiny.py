#!/usr/bin/env python3
"""train_tiny.py: the PyTorch twin of train_tiny.c -- the same token file,
the same init, the same model, the backward by autograd, AdamW written with
the in-place ops torch.optim.AdamW uses -- printing its losses in the C
program's format.  tests/fixtures/train_tiny_losses.txt is its output:

    /usr/bin/python3 samples/train/train_tiny.py > tests/fixtures/train_tiny_losses.txt
"""
import math

import torch
import torch.nn.functional as F

V, T, B, C = 32, 8, 4, 16
H, BT = 4 * C, B * T
N_TOKENS, STEPS = 1024, 10
LR, BETA1, BETA2, EPS, WEIGHT_DECAY = 1e-2, 0.9, 0.999, 1e-8, 0.01


def tokens():
    """write_tokens() of train_tiny.c: the same 32-bit LCG and rule."""
    out, state, tok = [], 12345, 0
    for _ in range(N_TOKENS):
        state = (state * 1103515245 + 12345) & 0xFFFFFFFF
        tok = (state >> 8) % V if (state >> 16) % 8 == 0 else (tok * 5 + 3) % V
        out.append(tok)
    return torch.tensor(out, dtype=torch.int64)


def main():
    torch.set_num_threads(1)
    sizes = [V * C, T * C, C * H, H, H * C, C]
    n = sum(sizes)
    fcb, projw, projb = sum(sizes[:3]), sum(sizes[:4]), sum(sizes[:5])
    init = [0.0 if fcb <= i < projw or i >= projb else float(0.02 * math.sin(0.37 * i + 1.0))
            for i in range(n)]
    flat = torch.tensor(init, dtype=torch.float32)
    m = torch.zeros(n)
    v = torch.zeros(n)
    data = tokens()
    pos = 0
    for step in range(1, STEPS + 1):
        if pos + BT + 1 > len(data):
            pos = 0
        x, y = data[pos:pos + BT], data[pos + 1:pos + BT + 1]
        pos += BT
        p = flat.clone().requires_grad_(True)
        wte, wpe, fcw, fcb_, projw_, projb_ = torch.split(p, sizes)
        wte, wpe = wte.view(V, C), wpe.view(T, C)
        fcw, projw_ = fcw.view(C, H), projw_.view(H, C)
        enc = (wte[x].view(B, T, C) + wpe).view(BT, C)
        fch = enc @ fcw + fcb_
        proj = F.gelu(fch, approximate="tanh") @ projw_ + projb_
        res = enc + proj
        logits = res @ wte.t()
        loss = F.cross_entropy(logits, y, ignore_index=-100)
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


if __name__ == "__main__":
    main()
