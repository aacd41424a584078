#!/usr/bin/env python3
"""The generated project of bench/multifile.sh and bench/capture.sh: N
translation units layer_K.c, each defining one layer with its own weights
(made on first use, released at the end) and a static helper named alike in
every unit, and main.c driving the chain; OUT/build/compile_commands.json
lists them, OUT/units names them one per line.
usage: gen_layers.py OUT N"""
import json, os, sys
out, n = sys.argv[1], int(sys.argv[2])
with open(os.path.join(out, "layers.h"), "w") as f:
    f.write("#include <tensorlint/tensor.h>\n")
    for k in range(n):
        f.write(f"tl_tensor *layer_{k}(tl_tensor *x, int release);\n")
units = []
for k in range(n):
    units.append(f"layer_{k}.c")
    with open(os.path.join(out, units[-1]), "w") as f:
        f.write(f"""#include "layers.h"
static tl_tensor *w;
static tl_tensor *act(tl_tensor *h)
{{
    tl_tensor *y = tl_relu(h);
    tl_release(h);
    return y;
}}
tl_tensor *layer_{k}(tl_tensor *x, int release)
{{
    if (release) {{
        tl_release(w);
        return NULL;
    }}
    if (!w)
        w = tl_ones(TL_SHAPE(16, 16), TL_F32, TL_CPU);
    return act(tl_matmul(x, w));
}}
""")
with open(os.path.join(out, "main.c"), "w") as f:
    f.write('#include "layers.h"\nint main(void)\n{\n')
    f.write("    tl_tensor *x = tl_ones(TL_SHAPE(4, 16), TL_F32, TL_CPU);\n")
    for k in range(n):
        f.write(f"    {{ tl_tensor *y = layer_{k}(x, 0); tl_release(x); x = y; }}\n")
    for k in range(n):
        f.write(f"    layer_{k}(NULL, 1);\n")
    f.write("    tl_release(x);\n    return 0;\n}\n")
units.append("main.c")
db = [{"directory": out, "file": u, "arguments": ["cc", "-c", u]} for u in units]
os.makedirs(os.path.join(out, "build"))
json.dump(db, open(os.path.join(out, "build", "compile_commands.json"), "w"))
with open(os.path.join(out, "units"), "w") as f:
    f.write("\n".join(os.path.join(out, u) for u in units) + "\n")
