#!/usr/bin/env python3
"""Random and malformed input for `tensorlint lsp`: junk bytes, broken JSON,
messages of the wrong shape, requests with random params, edits at random
ranges, between a real open and a final shutdown and exit.  The server must
answer the final shutdown and exit with status 0, and (in sanitizer builds)
report no memory error, undefined behaviour or leak.
usage: fuzz.py TENSORLINT SAMPLE.c SEED..."""
import json, os, random, subprocess, sys


def messages(seed, sample):
    random.seed(seed)
    text = open(sample).read()
    uri = "file://" + os.path.abspath(sample)
    msgs = [frame(json.dumps({"jsonrpc":"2.0","id":0,"method":"initialize","params":{"capabilities":{"window":{"workDoneProgress":True}}}}).encode()),
            frame(json.dumps({"jsonrpc":"2.0","method":"initialized","params":{}}).encode()),
            frame(json.dumps({"jsonrpc":"2.0","method":"textDocument/didOpen","params":{"textDocument":{"uri":uri,"languageId":"c","version":1,"text":text}}}).encode())]
    def rnd_val(d=0):
        r = random.random()
        if d > 2 or r < 0.3: return random.choice([None, True, -1, 0, 2**40, -2**31, 1.5, "", "x", "file:///", uri, "\u00e9\ud83d\ude00"])
        if r < 0.6: return [rnd_val(d+1) for _ in range(random.randint(0,3))]
        keys = ["line","character","start","end","range","text","uri","textDocument","position","contentChanges","version","id","context","diagnostics"]
        return {random.choice(keys): rnd_val(d+1) for _ in range(random.randint(0,4))}
    methods = ["textDocument/hover","textDocument/inlayHint","textDocument/codeAction","textDocument/didChange","textDocument/didSave","textDocument/didOpen","textDocument/didClose","$/cancelRequest","shutdown","initialize","foo"]
    for k in range(300):
        r = random.random()
        if r < 0.1:
            msgs.append(bytes(random.getrandbits(8) for _ in range(random.randint(1, 40))))
        elif r < 0.2:
            msgs.append(frame(b"{" + bytes(random.choice(b'{}[]",:abc0123') for _ in range(random.randint(0,20)))))
        else:
            m = {"jsonrpc":"2.0","method":random.choice(methods)}
            if random.random() < 0.6: m["id"] = rnd_val() if random.random() < 0.2 else k+1
            m["params"] = rnd_val() if random.random() < 0.3 else {"textDocument":{"uri":uri,"version":k},"position":{"line":random.randint(0,30),"character":random.randint(0,80)},
                "range":{"start":{"line":random.randint(0,30),"character":random.randint(0,80)},"end":{"line":random.randint(0,30),"character":random.randint(0,200)}},
                "contentChanges":[{"range":{"start":{"line":random.randint(0,30),"character":random.randint(0,80)},"end":{"line":random.randint(0,30),"character":random.randint(0,80)}},"text":random.choice(["", "x", "tl_", "(", "\n", "é😀"])}],
                "id": random.randint(0,300)}
            msgs.append(frame(json.dumps(m).encode()))
    msgs.append(frame(b'{"jsonrpc":"2.0","id":9999,"method":"shutdown"}'))
    msgs.append(frame(b'{"jsonrpc":"2.0","method":"exit"}'))
    return b"".join(msgs)


def frame(b):
    return b"Content-Length: %d\r\n\r\n" % len(b) + b


def replies(out):
    """The ids of the responses in the server's output."""
    ids = []
    while out:
        head, _, rest = out.partition(b"\r\n\r\n")
        n = int(head.split(b":")[1])
        ids.append(json.loads(rest[:n]).get("id"))
        out = rest[n:]
    return ids


def main():
    srv, sample, seeds = sys.argv[1], sys.argv[2], sys.argv[3:]
    # use_sigaltstack=0: see tests/lsp.cmake (LLVM's alternate signal stack)
    env = dict(os.environ, ASAN_OPTIONS="detect_leaks=1:abort_on_error=1:use_sigaltstack=0",
               UBSAN_OPTIONS="print_stacktrace=1:halt_on_error=1")
    failed = 0
    for seed in seeds:
        p = subprocess.run([srv, "lsp", "--debounce=0"], input=messages(int(seed), sample),
                           capture_output=True, env=env, timeout=300)
        err = p.stderr.decode(errors="replace")
        sanitizer = any(s in err for s in ("AddressSanitizer", "LeakSanitizer", "runtime error"))
        answered = 9999 in replies(p.stdout)
        ok = p.returncode == 0 and answered and not sanitizer
        print("seed %s: exit %d, final shutdown %s%s: %s" % (
            seed, p.returncode, "answered" if answered else "NOT answered",
            ", sanitizer report" if sanitizer else "", "ok" if ok else "FAIL"))
        if not ok:
            print(err[-4000:])
            failed += 1
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
