#!/usr/bin/env python3
"""lsp_link.py TENSORLINT FILE.c: one session with `TENSORLINT lsp` (open the
file, wait for its diagnostics, shut down); prints the codeDescription href
of the first diagnostic that has one, or nothing.  check_deb.sh uses it to
see that the installed server links to the installed checks' pages."""
import json
import pathlib
import subprocess
import sys

cli, path = sys.argv[1], pathlib.Path(sys.argv[2]).resolve()
p = subprocess.Popen([cli, "lsp"], stdin=subprocess.PIPE, stdout=subprocess.PIPE)


def send(msg):
    body = json.dumps(msg).encode()
    p.stdin.write(b"Content-Length: %d\r\n\r\n" % len(body) + body)
    p.stdin.flush()


def recv():
    n = 0
    while True:
        line = p.stdout.readline()
        if not line:
            sys.exit("lsp_link.py: the server closed its output")
        if line in (b"\r\n", b"\n"):
            break
        if line.lower().startswith(b"content-length:"):
            n = int(line.split(b":")[1])
    return json.loads(p.stdout.read(n))


send({"jsonrpc": "2.0", "id": 1, "method": "initialize",
      "params": {"processId": None, "rootUri": None, "capabilities": {}}})
while recv().get("id") != 1:
    pass
send({"jsonrpc": "2.0", "method": "initialized", "params": {}})
send({"jsonrpc": "2.0", "method": "textDocument/didOpen",
      "params": {"textDocument": {"uri": path.as_uri(), "languageId": "c", "version": 1,
                                  "text": path.read_text()}}})
href = ""
while True:
    m = recv()
    if m.get("method") == "textDocument/publishDiagnostics":
        links = [d["codeDescription"]["href"] for d in m["params"]["diagnostics"]
                 if "codeDescription" in d]
        href = links[0] if links else ""
        break
send({"jsonrpc": "2.0", "id": 2, "method": "shutdown"})
while recv().get("id") != 2:
    pass
send({"jsonrpc": "2.0", "method": "exit"})
p.wait(timeout=30)
print(href)
