"""Random C programs against the tensor API, in the styles of real programs,
for the differential soundness test (run.py; docs/soundness.md).

generate(seed, styles) returns a Program: its C text and what a run needs
to know of it: the sizes it reads at run time (each an Input: where it is
read, the names the analysis may give it, how a run passes it), so that the
test can pass random values and bind the report's symbols to them.

Every program is valid for every input the test passes (sizes 1 to MAX_SIZE,
every option given or left at its default): a run never raises a tensor
error, so any error the report predicts is false.  Shapes are tracked here
as tuples of C expressions over the inputs; an op is emitted only where
its operands' shapes agree for all values.

Styles (STYLES, each can be chosen alone with --styles):
  argv      positional sizes with atoi, argc checked, an error exit
  optloop   an option loop over argv whose else arm calls usage() (exit)
  getopt    getopt with a default: arm calling usage()
  env       a helper env_int(name, default) called several times
  header    a config struct read with fread from a file the test writes, copied
            by value into a model struct and read back by a helper taking it
            by value (tensors sized through each spelling are added together)
  parse     a comma list counted with strtok, a string counted with while (*p),
            a "n=N" setting read with sscanf (an error exit when malformed)
  helpers   tensor helpers called several times (make, consume)
  macros    function-like macros: expression, statement, do-while(0), assignment,
            nested (a do-while(0) macro in another, a macro in an argument), an
            argument with a side effect, two statements in one macro
  structs   a dims struct copied by value into a helper
  loops     loops over a size, loops of unknown trip count that break on a
            value read back from a tensor
  branches  if on a size's parity or an environment flag (unknown statically)
  views     views (view, transpose, narrow, select) and contiguous copies
  inplace   in-place ops (add_, mul_scalar_, zero_)
  exits     early exits from main on a size: return or exit(0), after
            releasing some of the tensors (the others live at the exit)
  switchopt an option loop over argv written as llama2.c's: a switch over the
            option's letter whose default: arm calls usage() (exit)
  abs       a header field read through abs() in two helpers, one into a long
            and one into an int (llama2.c's abs(c->vocab_size)): tensors sized
            through each spelling are added together
  mode      a string option selecting a mode (strcmp(mode, "generate") == 0,
            else "chat", else usage()), the arms doing different tensor work
  gotos     goto-cleanup: a helper releasing at one label on both paths, a
            builder returning NULL through it (the caller falls back), the
            failure taken when a size has one value; a null handle jumping
            to a label at main's end
  counters  loops stepping by 2, counting down, size_t and unsigned counters
            (`i-- > 0`), do-while, continue on the counter, sizeof sizes
  ternary   ?: between two tensors, two sizes, two allocations
  arrays    arrays of handles filled by a loop and released in another: 1-D,
            2-D, an array of structs of handles run as layers
  globals   a global cache made on first use, a static local buffer that grows
  outparam  helpers returning through tl_tensor **, a helper replacing a field
            of a struct it gets a pointer to
  recursion a helper calling itself on a smaller size; an op table of function
            pointers indexed by a constant, a size, a counter, or chosen by a flag
  chains    chains of views (narrow, select, slice by 2, permute, unsqueeze,
            expand, squeeze), in-place through a view, the base released first
"""
import random
import re

STYLES = ["argv", "optloop", "getopt", "env", "header", "parse", "helpers", "macros",
          "structs", "loops", "branches", "views", "inplace", "exits", "switchopt", "abs", "mode",
          "gotos", "counters", "ternary", "arrays", "globals", "outparam", "recursion", "chains"]
NEW_STEPS = ("gotos", "counters", "ternary", "arrays", "globals", "outparam", "recursion", "chains")
INPUT_STYLES = ["argv", "optloop", "getopt", "env", "header", "parse", "switchopt"]
MAX_SIZE = 6


class Input:
    """A size the program reads at run time.  names: the symbol names the
    analysis may give it (the variable, the struct field); how: 'argv' (its
    position), 'opt' (its flag), 'env' (its variable), 'header' (its index in
    the file), 'list' (an env variable holding a comma list of that many
    items), 'string' (an env variable holding a string of that length)."""

    def __init__(self, var, names, how, key, default=None, lo=1, hi=MAX_SIZE):
        self.var, self.names, self.how, self.key = var, names, how, key
        self.default, self.lo, self.hi = default, lo, hi


class Program:
    def __init__(self):
        self.inputs = []
        self.styles = set()
        self.header_fields = []  # header: the struct's fields in file order
        self.flag_env = None     # branches: an environment flag (set or not)
        self.mode_env = None     # mode: the variable naming the mode ("chat" when the flag is set)
        self.param_conds = {}    # gotos: a helper's parameter -> the C conditions its calls pass
        self.derived = {}        # ternary: a variable -> (C condition, C value if true, if false)
        self.text = ""


def stores(t):
    """The storages tensor t may share (its own variable's when no view made it):
    a variable reassigned keeps its name, so this over-approximates."""
    return t.get("store", {t["var"]})


class Gen:
    def __init__(self, seed, styles):
        self.r = random.Random(seed)
        self.styles = [s for s in styles if s in STYLES]
        self.p = Program()
        self.top = []       # helpers, macros, structs before main
        self.body = []      # main's statements
        self.indent = 1
        self.n_tmp = 0
        self.live = []      # tensors: dict(var, shape, contig, scope)
        self.sizes = []     # C expressions of sizes usable in shapes (each >= 1)
        self.uses = set()   # helpers and macros that main uses
        self.aliases = {}   # a size's other spellings (a struct copy, a helper's result)

    # ---- output ----
    def emit(self, line):
        self.body.append("    " * self.indent + line)

    def tmp(self, stem="t"):
        self.n_tmp += 1
        return "%s%d" % (stem, self.n_tmp)

    def want(self, style, p=0.5):
        return style in self.styles and self.r.random() < p

    # ---- inputs ----
    def inputs(self):
        r = self.r
        chosen = [s for s in INPUT_STYLES if s in self.styles]
        if not chosen:
            chosen = ["argv"]
        r.shuffle(chosen)
        picked = []
        for s in chosen:  # one style reads argv: positions and options do not mix
            if s in ("argv", "optloop", "getopt", "switchopt") and any(
                    x in ("argv", "optloop", "getopt", "switchopt") for x in picked):
                continue
            picked.append(s)
        for s in picked[: r.randint(1, min(3, len(picked)))]:
            getattr(self, "in_" + s)()
            self.p.styles.add(s)

    def in_argv(self):
        k = self.r.randint(1, 2)
        self.emit("if (argc < %d) {" % (k + 1))
        self.emit("    fprintf(stderr, \"usage: prog%s\\n\");" % (" N" * k))
        self.emit("    return 2;")
        self.emit("}")
        for j in range(k):
            v = self.tmp("n")
            self.emit("int %s = atoi(argv[%d]);" % (v, j + 1))
            self.add_input(Input(v, [v], "argv", j + 1))

    def opt_vars(self, n):
        vs = []
        for _ in range(n):
            v, d = self.tmp("o"), self.r.randint(1, MAX_SIZE)
            self.emit("int %s = %d;" % (v, d))
            vs.append((v, d, "abcdefghk"[len(vs)]))
        return vs

    def in_optloop(self):
        vs = self.opt_vars(self.r.randint(1, 2))
        self.use_usage()
        self.emit("for (int i = 1; i < argc; i += 2) {")
        self.emit("    if (i + 1 >= argc)")
        self.emit("        usage();")
        for j, (v, d, c) in enumerate(vs):
            kw = "if" if j == 0 else "else if"
            self.emit("    %s (argv[i][0] == '-' && argv[i][1] == '%s')" % (kw, c))
            self.emit("        %s = atoi(argv[i + 1]);" % v)
        self.emit("    else")
        self.emit("        usage();")
        self.emit("}")
        for v, d, c in vs:
            self.add_input(Input(v, [v], "opt", "-" + c, default=d))

    def in_getopt(self):
        vs = self.opt_vars(self.r.randint(1, 2))
        self.use_usage()
        self.emit("int c;")
        self.emit("while ((c = getopt(argc, argv, \"%s\")) != -1) {" % "".join(c + ":" for _, _, c in vs))
        self.emit("    switch (c) {")
        for v, d, c in vs:
            self.emit("    case '%s': %s = atoi(optarg); break;" % (c, v))
        self.emit("    default: usage();")
        self.emit("    }")
        self.emit("}")
        for v, d, c in vs:
            self.add_input(Input(v, [v], "opt", "-" + c, default=d))

    def in_switchopt(self):
        """llama2.c's option loop: pairs of a one-letter flag and its value, a
        switch over the letter, usage() in its default: arm."""
        vs = self.opt_vars(self.r.randint(1, 3))
        self.use_usage()
        self.emit("for (int i = 1; i < argc; i += 2) {")
        self.emit("    if (i + 1 >= argc || argv[i][0] != '-' || strlen(argv[i]) != 2)")
        self.emit("        usage();")
        self.emit("    const char *val = argv[i + 1];")
        self.emit("    switch (argv[i][1]) {")
        for v, d, c in vs:
            self.emit("    case '%s': %s = atoi(val); break;" % (c, v))
        if self.r.random() < 0.5:  # an option the program takes and ignores
            self.emit("    case 'q': break;")
        self.emit("    default: usage();")
        self.emit("    }")
        self.emit("}")
        for v, d, c in vs:
            self.add_input(Input(v, [v], "opt", "-" + c, default=d))

    def in_env(self):
        self.top_once("env_int", [
            "static int env_int(const char *name, int fallback)",
            "{",
            "    const char *s = getenv(name);",
            "    int v = s ? atoi(s) : fallback;",
            "    return v > 0 ? v : fallback;",
            "}"])
        n = self.r.randint(2, 3)
        vs = []
        for _ in range(n):
            v, d = self.tmp("e"), self.r.randint(1, MAX_SIZE)
            vs.append((v, d, "SOUND_" + v.upper()))
        if self.r.random() < 0.5:
            self.emit("int " + ", ".join("%s = env_int(\"%s\", %d)" % (v, e, d) for v, d, e in vs) + ";")
        else:
            for v, d, e in vs:
                self.emit("int %s = env_int(\"%s\", %d);" % (v, e, d))
        for v, d, e in vs:
            self.add_input(Input(v, [v, "v"], "env", e, default=d))

    def in_header(self):
        fields = ["dim", "hidden", "n_layers", "seq_len"][: self.r.randint(2, 4)]
        self.p.header_fields = fields
        self.top_once("Config", ["typedef struct Config {"] + ["    int %s;" % f for f in fields] +
                      ["} Config;"])
        self.emit("const char *cfg_path = getenv(\"SOUND_CFG\");")
        self.emit("FILE *cf = cfg_path ? fopen(cfg_path, \"rb\") : NULL;")
        self.emit("if (!cf) {")
        self.emit("    fprintf(stderr, \"no config\\n\");")
        self.emit("    return 2;")
        self.emit("}")
        self.emit("Config config;")
        self.emit("if (fread(&config, sizeof config, 1, cf) != 1) {")
        self.emit("    fclose(cf);")
        self.emit("    return 2;")
        self.emit("}")
        self.emit("fclose(cf);")
        for k, f in enumerate(fields):
            self.add_input(Input("config." + f, ["config." + f, f], "header", k), size=False)
            self.sizes.append("config." + f)
        if self.r.random() < 0.6:
            self.header_copies(fields)
        if "abs" in self.styles and self.r.random() < 0.8:
            self.header_abs(fields)

    def header_abs(self, fields):
        """A field read through abs() in two helpers, into a long and into an
        int: one run-time value, so tensors sized through either may be added."""
        f = self.r.choice(fields)
        self.top_once("abs_long_" + f, ["static long abs_long_%s(const Config *c)" % f, "{",
                                        "    long v = abs(c->%s);" % f, "    return v;", "}"])
        self.top_once("abs_int_" + f, ["static int abs_int_%s(Config *c)" % f, "{",
                                       "    int v = abs(c->%s);" % f, "    return v;", "}"])
        a, b = self.tmp("a"), self.tmp("a")
        self.emit("long %s = abs_long_%s(&config);" % (a, f))
        self.emit("int %s = abs_int_%s(&config);" % (b, f))
        self.aliases.setdefault("config." + f, []).extend(["(int)" + a, b])
        self.p.styles.add("abs")

    def header_copies(self, fields):
        """The config copied by value into a model struct and read back by a
        helper that takes it by value: every spelling is the same run-time
        value (one symbol), so tensors sized through either may be added."""
        f = self.r.choice(fields)
        self.top_once("Model", ["typedef struct Model {", "    int version;", "    Config config;",
                                "} Model;"])
        self.top_once("cfg_" + f, ["static int cfg_%s(Config c)" % f, "{", "    return c.%s;" % f,
                                   "}"])
        v = self.tmp("h")
        self.emit("Model model;")
        self.emit("model.version = 1;")
        self.emit("model.config = config;")
        self.emit("int %s = cfg_%s(model.config);" % (v, f))
        self.aliases["config." + f] = ["model.config." + f, v]

    def in_parse(self):
        pick = self.r.random()
        if pick < 0.3:
            v = self.tmp("n_set")
            self.emit("int %s = 3;" % v)
            self.emit("const char *setting = getenv(\"SOUND_SET\");")
            self.emit("if (setting && sscanf(setting, \"n=%%d\", &%s) != 1) {" % v)
            self.emit("    fprintf(stderr, \"SOUND_SET: expected n=N\\n\");")
            self.emit("    exit(2);")
            self.emit("}")
            self.add_input(Input(v, [v], "setting", "SOUND_SET", default=3))
        elif pick < 0.65:
            v = self.tmp("n_tok")
            self.emit("char list[256];")
            self.emit("const char *ls = getenv(\"SOUND_LIST\");")
            self.emit("snprintf(list, sizeof list, \"%s\", ls ? ls : \"a,b\");")
            self.emit("int %s = 0;" % v)
            self.emit("for (char *tok = strtok(list, \",\"); tok; tok = strtok(NULL, \",\"))")
            self.emit("    %s++;" % v)
            self.add_input(Input(v, [v], "list", "SOUND_LIST", default=2))
        else:
            v = self.tmp("n_ch")
            self.emit("const char *word = getenv(\"SOUND_WORD\");")
            self.emit("if (!word || !*word)")
            self.emit("    word = \"abc\";")
            self.emit("int %s = 0;" % v)
            self.emit("for (const char *p = word; *p; p++)")
            self.emit("    %s++;" % v)
            self.add_input(Input(v, [v], "string", "SOUND_WORD", default=3))

    def add_input(self, inp, size=True):
        self.p.inputs.append(inp)
        if size:
            self.sizes.append(inp.var)

    def use_usage(self):
        self.top_once("usage", [
            "static void usage(void)",
            "{",
            "    fprintf(stderr, \"usage: prog [-a N] [-b N]\\n\");",
            "    exit(2);",
            "}"])

    def top_once(self, key, lines):
        if key not in self.uses:
            self.uses.add(key)
            self.top.append("\n".join(lines))

    # ---- sizes and shapes ----
    def size(self):
        r = self.r
        if self.sizes and r.random() < 0.8:
            s = r.choice(self.sizes)
            if r.random() < 0.2:
                return "%s + %d" % (s, r.randint(1, 3))
            if r.random() < 0.15:
                return "2 * %s" % s
            return s
        return str(r.randint(1, 8))

    def shape(self):
        return tuple(self.size() for _ in range(self.r.randint(1, 2)))

    def structs_prelude(self):
        if not self.want("structs", 0.8):
            return
        self.top_once("Dims", ["typedef struct Dims {", "    int rows, cols;", "} Dims;"])
        self.top_once("alloc_dims", [
            "static tl_tensor *alloc_dims(Dims d)",
            "{",
            "    return tl_zeros(TL_SHAPE(d.rows, d.cols), TL_F32, TL_CPU);",
            "}"])
        a, b = self.size(), self.size()
        self.emit("Dims dims = {%s, %s};" % (a, b))
        self.emit("Dims copy = dims;")
        self.dims = ("copy.rows", "copy.cols", a, b)
        self.p.styles.add("structs")

    # ---- tensors ----
    def alloc_expr(self, shape):
        r = self.r
        sh = ", ".join(shape)
        if len(shape) == 2 and getattr(self, "dims", None) and r.random() < 0.3 and \
                (shape[0], shape[1]) == self.dims[2:]:
            return "alloc_dims(copy)", "structs"
        if self.want("macros", 0.35):
            self.top_once("NEW_MAT", ["#define NEW_T(...) tl_zeros(TL_SHAPE(__VA_ARGS__), TL_F32, TL_CPU)"])
            return "NEW_T(%s)" % sh, "macros"
        if self.want("helpers", 0.4):
            self.top_once("make", [
                "static tl_tensor *make(tl_ints shape, double v)",
                "{",
                "    tl_tensor *t = tl_full(shape, v, TL_F32, TL_CPU);",
                "    return t;",
                "}"])
            return "make(TL_SHAPE(%s), %d.0)" % (sh, r.randint(0, 3)), "helpers"
        op = r.choice(["tl_zeros", "tl_ones", "tl_randn"])
        return "%s(TL_SHAPE(%s), TL_F32, TL_CPU)" % (op, sh), None

    def new_tensor(self, shape=None):
        if not shape:
            shape = self.shape()
            if getattr(self, "dims", None) and self.r.random() < 0.25:
                shape = self.dims[2:]
        v = self.tmp()
        e, st = self.alloc_expr(shape)
        if st:
            self.p.styles.add(st)
        for size, other in self.aliases.items():  # the same value, spelled another way
            if self.r.random() < 0.5:
                e = re.sub(r"(?<![\w.])%s(?!\w)" % re.escape(size), self.r.choice(other), e)
                self.p.styles.add("structs")
        self.emit("tl_tensor *%s = %s;" % (v, e))
        t = {"var": v, "shape": tuple(shape), "contig": True, "depth": self.indent}
        self.live.append(t)
        return t

    def pick(self, pred=lambda t: True):
        c = [t for t in self.live if t["depth"] <= self.indent and pred(t)]
        return self.r.choice(c) if c else None

    def release(self, t):
        if self.want("macros", 0.3):
            self.top_once("DROP", ["#define DROP(t) tl_release(t)"])
            self.emit("DROP(%s);" % t["var"])
            self.p.styles.add("macros")
        else:
            self.emit("tl_release(%s);" % t["var"])
        self.live.remove(t)

    def step(self):
        r = self.r
        kinds = ["new", "new", "unary", "binary", "release", "matmul"]
        for st in ("helpers", "macros", "views", "inplace", "loops", "branches", "exits"):
            if st in self.styles:
                kinds += [st] * 2
        for st in NEW_STEPS:
            if st in self.styles:
                kinds.append(st)
        k = r.choice(kinds)
        getattr(self, "s_" + k)()

    def s_new(self):
        self.new_tensor()

    def s_unary(self):
        t = self.pick() or self.new_tensor()
        v = self.tmp()
        op = self.r.choice(["tl_relu", "tl_exp", "tl_neg", "tl_sigmoid", "tl_clone"])
        self.emit("tl_tensor *%s = %s(%s);" % (v, op, t["var"]))
        # (elementwise results keep their input's strides, as PyTorch's do: a
        # transposed input gives a result no view of other shape may take)
        self.live.append({"var": v, "shape": t["shape"], "contig": t["contig"],
                          "depth": self.indent})

    def s_binary(self):
        t = self.pick() or self.new_tensor()
        u = self.pick(lambda x: x["shape"] == t["shape"] and x is not t)
        if not u:
            u = self.new_tensor(t["shape"])
        v = self.tmp()
        op = self.r.choice(["tl_add", "tl_mul", "tl_sub", "tl_maximum"])
        self.emit("tl_tensor *%s = %s(%s, %s);" % (v, op, t["var"], u["var"]))
        self.live.append({"var": v, "shape": t["shape"], "contig": t["contig"] and u["contig"],
                          "depth": self.indent})

    def s_matmul(self):
        t = self.pick(lambda x: len(x["shape"]) == 2) or self.new_tensor((self.size(), self.size()))
        w = self.new_tensor((t["shape"][1], self.size()))
        v = self.tmp()
        self.emit("tl_tensor *%s = tl_matmul(%s, %s);" % (v, t["var"], w["var"]))
        self.live.append({"var": v, "shape": (t["shape"][0], w["shape"][1]), "contig": True,
                          "depth": self.indent})

    def s_release(self):
        t = self.pick(lambda x: x["depth"] == self.indent)
        if t:
            self.release(t)

    def s_helpers(self):
        t = self.pick(lambda x: x["depth"] == self.indent and x["contig"])
        if not t:
            return self.s_new()
        self.top_once("consume", [
            "static tl_tensor *relu_consume(tl_tensor *x)",
            "{",
            "    tl_tensor *y = tl_relu(x);",
            "    tl_release(x);",
            "    return y;",
            "}"])
        self.emit("%s = relu_consume(%s);" % (t["var"], t["var"]))
        self.p.styles.add("helpers")

    def s_macros(self):
        r = self.r
        t = self.pick(lambda x: x["depth"] == self.indent)
        if not t:
            return self.s_new()
        self.p.styles.add("macros")
        form = r.randint(0, 6)
        if form >= 3:
            return self.macros_more(t, form)
        if form == 0:
            self.top_once("SWAP_IN", [
                "#define SWAP_IN(h, e) do { tl_tensor *t_ = (e); tl_release(h); h = t_; } while (0)"])
            self.emit("SWAP_IN(%s, tl_relu(%s));" % (t["var"], t["var"]))
            t["contig"] = True
        elif form == 1:
            self.top_once("ASSIGN", ["#define ASSIGN(var, val) var = val"])
            v = self.tmp("k")
            self.emit("int %s = 1;" % v)
            self.emit("ASSIGN(%s, %s);" % (v, t["shape"][0]))
            u = self.new_tensor((v,) + t["shape"][1:])
            # the same shape as t's, spelled through the assigned variable
            u["shape"] = t["shape"]
        else:
            self.top_once("SCALE", ["#define SCALE(t, s) tl_mul_scalar(t, s)"])
            v = self.tmp()
            self.emit("tl_tensor *%s = SCALE(%s, 0.5);" % (v, t["var"]))
            self.live.append({"var": v, "shape": t["shape"], "contig": t["contig"],
                              "depth": self.indent})

    def macros_more(self, t, form):
        """Nested macros, an argument with a side effect, a macro of two
        statements: each must be lowered as the same code written out."""
        if form == 3:  # a do-while(0) macro inside another macro
            self.top_once("SWAP_IN", [
                "#define SWAP_IN(h, e) do { tl_tensor *t_ = (e); tl_release(h); h = t_; } while (0)"])
            self.top_once("RELU_IN", ["#define RELU_IN(h) SWAP_IN(h, tl_relu(h))"])
            self.emit("RELU_IN(%s);" % t["var"])
            t["contig"] = True
        elif form == 4:  # an expression macro whose argument is another macro's expansion
            self.top_once("NEW_MAT", ["#define NEW_T(...) tl_zeros(TL_SHAPE(__VA_ARGS__), TL_F32, TL_CPU)"])
            self.top_once("TWICE", ["#define TWICE(x) (2 * (x))"])
            self.top_once("NEW_WIDE", ["#define NEW_WIDE(r, c) NEW_T(r, TWICE(c))"])
            a, b = self.size(), self.size()
            v = self.tmp()
            self.emit("tl_tensor *%s = NEW_WIDE(%s, %s);" % (v, a, b))
            self.live.append({"var": v, "shape": (a, "2 * (%s)" % b), "contig": True,
                              "depth": self.indent})
        elif form == 5:  # an argument with a side effect, evaluated once
            self.top_once("NEW_MAT", ["#define NEW_T(...) tl_zeros(TL_SHAPE(__VA_ARGS__), TL_F32, TL_CPU)"])
            self.top_once("NEXT", ["#define NEXT(v) (++(v))"])
            k, a = self.tmp("k"), self.size()
            self.emit("int %s = %s;" % (k, a))
            v = self.tmp()
            self.emit("tl_tensor *%s = NEW_T(NEXT(%s));" % (v, k))
            self.live.append({"var": v, "shape": ("(%s) + 1" % a,), "contig": True,
                              "depth": self.indent})
        else:  # two statements, no do-while: released together
            u = self.pick(lambda x: x["depth"] == self.indent and x is not t)
            if not u:
                return self.release(t)
            self.top_once("DROP2", ["#define DROP2(a, b) tl_release(a); tl_release(b)"])
            self.emit("DROP2(%s, %s);" % (t["var"], u["var"]))
            self.live.remove(t)
            self.live.remove(u)

    def s_views(self):
        r = self.r
        t = self.pick(lambda x: x["contig"])
        if not t:
            return self.s_new()
        self.p.styles.add("views")
        v = self.tmp("v")
        sh = t["shape"]
        form = r.randint(0, 3)
        if form == 0 or len(sh) == 1:
            flat = " * ".join("(%s)" % s for s in sh)
            self.emit("tl_tensor *%s = tl_view(%s, TL_SHAPE(%s));" % (v, t["var"], flat))
            nt = {"var": v, "shape": ("(%s)" % flat,), "contig": True}
        elif form == 1:
            self.emit("tl_tensor *%s = tl_transpose(%s, 0, 1);" % (v, t["var"]))
            nt = {"var": v, "shape": (sh[1], sh[0]), "contig": False}
            if r.random() < 0.6:
                c = self.tmp()
                self.emit("tl_tensor *%s = tl_contiguous(%s);" % (c, v))
                self.live.append({"var": c, "shape": nt["shape"], "contig": True,
                                  "depth": self.indent})
        elif form == 2:
            self.emit("tl_tensor *%s = tl_narrow(%s, 0, 0, 1);" % (v, t["var"]))
            nt = {"var": v, "shape": ("1",) + sh[1:], "contig": True}
        else:
            self.emit("tl_tensor *%s = tl_select(%s, 0, 0);" % (v, t["var"]))
            nt = {"var": v, "shape": sh[1:], "contig": True}
        nt["depth"] = self.indent
        nt["store"] = set(stores(t))  # a view shares its base's storage
        self.live.append(nt)

    def s_inplace(self):
        r = self.r
        t = self.pick(lambda x: x["contig"])
        if not t:
            return self.s_new()
        self.p.styles.add("inplace")
        form = r.randint(0, 2)
        if form == 0:
            # an operand that shares t's storage overlaps the write: a run error
            u = self.pick(lambda x: x["shape"] == t["shape"] and not stores(x) & stores(t))
            if u:
                self.emit("tl_add_(%s, %s);" % (t["var"], u["var"]))
                return
        if form == 1:
            self.emit("tl_zero_(%s);" % t["var"])
        else:
            self.emit("tl_mul_scalar_(%s, 2.0);" % t["var"])

    # ---- the styles of real C projects (the second set) ----
    def s_gotos(self):
        """goto-cleanup error handling: a helper that releases what it made
        at one label on both paths (its failure taken when a size has one
        value), a builder that returns NULL through the label (the caller
        falls back), and in main a null test on a handle jumping to a label
        that only reports (never taken: allocations do not fail)."""
        r = self.r
        self.p.styles.add("gotos")
        form = r.randint(0, 2)
        fail = "0"
        if self.sizes and r.random() < 0.7:
            s = r.choice(self.sizes)
            fail = r.choice(["%s == %d" % (s, r.randint(1, 4)), "%s %% 2 == 0" % s, "%s > 3" % s])
        a, b = self.size(), self.size()
        if form < 2:  # the report assumes the helper's failure not taken: a run takes it when
            self.p.param_conds.setdefault("fail", []).append(fail)  # one call's condition holds
        if form == 0:
            self.top_once("scratch", [
                "static int scratch(int r, int c, int fail)",
                "{",
                "    int rc = -1;",
                "    tl_tensor *a = NULL, *b = NULL, *s = NULL;",
                "    a = tl_ones(TL_SHAPE(r, c), TL_F32, TL_CPU);",
                "    if (!a)",
                "        goto fail;",
                "    b = tl_relu(a);",
                "    if (fail)",
                "        goto fail;",
                "    s = tl_add(a, b);",
                "    rc = 0;",
                "fail:",
                "    tl_release(s);",
                "    tl_release(b);",
                "    tl_release(a);",
                "    return rc;",
                "}"])
            self.emit("if (scratch(%s, %s, %s) != 0)" % (a, b, fail))
            self.emit("    fprintf(stderr, \"scratch failed\\n\");")
        elif form == 1:
            self.top_once("build", [
                "static tl_tensor *build(int r, int c, int fail)",
                "{",
                "    tl_tensor *w = NULL, *out = NULL;",
                "    w = tl_randn(TL_SHAPE(r, c), TL_F32, TL_CPU);",
                "    if (!w)",
                "        goto fail;",
                "    if (fail)",
                "        goto fail;",
                "    out = tl_mul_scalar(w, 2.0);",
                "    tl_release(w);",
                "    return out;",
                "fail:",
                "    tl_release(w);",
                "    return NULL;",
                "}"])
            v = self.tmp()
            self.emit("tl_tensor *%s = build(%s, %s, %s);" % (v, a, b, fail))
            self.emit("if (!%s)" % v)
            self.emit("    %s = tl_zeros(TL_SHAPE(%s, %s), TL_F32, TL_CPU);" % (v, a, b))
            self.live.append({"var": v, "shape": (a, b), "contig": True, "depth": self.indent})
        else:
            t = self.pick()
            if not t:
                return self.s_new()
            self.main_fail = True
            self.emit("if (!%s)" % t["var"])
            self.emit("    goto fail;")

    def s_counters(self):
        """Loops written otherwise: a step of 2, counting down, size_t and
        unsigned counters, do-while, continue on the counter, sizes computed
        with sizeof."""
        r = self.r
        if self.indent > 2:
            return self.s_new()
        self.p.styles.add("counters")
        i, s = self.tmp("i"), self.size()
        form = r.randint(0, 5)
        if form == 0:
            self.emit("for (int %s = 0; %s < %s; %s += 2) {" % (i, i, s, i))
        elif form == 1:
            self.emit("for (int %s = %s; %s > 0; %s--) {" % (i, s, i, i))
        elif form == 2:
            self.emit("for (size_t %s = 0; %s < (size_t)(%s); %s++) {" % (i, i, s, i))
        elif form == 3:
            self.emit("for (unsigned %s = (unsigned)(%s); %s-- > 0;) {" % (i, s, i))
        elif form == 4:
            self.emit("int %s = 0;" % i)
            self.emit("do {")
        else:
            self.emit("for (int %s = 0; %s < %s; %s++) {" % (i, i, s, i))
            self.emit("    if (%s %% 2 == 1)" % i if r.random() < 0.5 else "    if (%s == 0)" % i)
            self.emit("        continue;")
        if r.random() < 0.5:  # a size computed with sizeof
            nb, k = self.tmp("nb"), self.tmp("t")
            self.emit("    size_t %s = (size_t)(%s) * sizeof(float);" % (nb, s))
            self.emit("    tl_tensor *%s = tl_zeros(TL_SHAPE((int64_t)(%s / sizeof(float))), TL_F32, TL_CPU);"
                      % (k, nb))
            self.live.append({"var": k, "shape": (s,), "contig": True, "depth": self.indent + 1})
        self.block(r.randint(1, 3))
        self.emit("} while (++%s < %s);" % (i, s) if form == 4 else "}")

    def s_ternary(self):
        """A ternary choosing between two tensors, two sizes or two
        allocations, on a size's parity or an environment flag."""
        r = self.r
        self.p.styles.add("ternary")
        if self.sizes and r.random() < 0.6:
            cond = "%s %% 2 == 0" % r.choice(self.sizes)
        else:
            self.p.flag_env = "SOUND_FLAG"
            cond = "getenv(\"SOUND_FLAG\") != NULL"
        form = r.randint(0, 2)
        v = self.tmp()
        if form == 0:
            t = self.pick()
            u = t and self.pick(lambda x: x["shape"] == t["shape"] and x is not t)
            if not u:
                return self.s_new()
            c = self.tmp("c")
            self.emit("tl_tensor *%s = (%s) ? %s : %s;" % (c, cond, t["var"], u["var"]))
            self.emit("tl_tensor *%s = tl_neg(%s);" % (v, c))
            self.live.append({"var": v, "shape": t["shape"], "contig": t["contig"] and u["contig"],
                              "depth": self.indent})
        elif form == 1:
            a, b = self.size(), self.size()
            k = self.tmp("k")
            self.emit("int %s = (%s) ? %s : %s;" % (k, cond, a, b))
            self.p.derived[k] = (cond, a, b)  # a symbol of its own: the test knows its value
            self.emit("tl_tensor *%s = tl_ones(TL_SHAPE(%s, %s), TL_F32, TL_CPU);" % (v, k, a))
            self.live.append({"var": v, "shape": (k, a), "contig": True, "depth": self.indent})
        else:
            sh = self.shape()
            dims = ", ".join(sh)
            self.emit("tl_tensor *%s = (%s) ? tl_zeros(TL_SHAPE(%s), TL_F32, TL_CPU)" % (v, cond, dims))
            self.emit("                   : tl_randn(TL_SHAPE(%s), TL_F32, TL_CPU);" % dims)
            self.live.append({"var": v, "shape": sh, "contig": True, "depth": self.indent})

    def s_arrays(self):
        """Arrays of handles filled by a loop over a size and released in
        another (1-D, 2-D, an array of structs of handles), used in between."""
        r = self.r
        if self.indent > 2:
            return self.s_new()
        self.p.styles.add("arrays")
        n, c, h, i = self.size(), self.size(), self.tmp("h"), self.tmp("i")
        form = r.randint(0, 2)
        if form == 0:
            self.emit("tl_tensor *%s[16];" % h)
            self.emit("for (int %s = 0; %s < %s; %s++)" % (i, i, n, i))
            self.emit("    %s[%s] = tl_full(TL_SHAPE(%s), (double)%s, TL_F32, TL_CPU);" % (h, i, c, i))
            if r.random() < 0.5:
                self.emit("for (int %s = 1; %s < %s; %s++)" % (i, i, n, i))
                self.emit("    tl_add_(%s[0], %s[%s]);" % (h, h, i))
            v = self.tmp()
            self.emit("tl_tensor *%s = tl_add(%s[0], %s[%s - 1]);" % (v, h, h, n))
            self.live.append({"var": v, "shape": (c,), "contig": True, "depth": self.indent})
            if r.random() < 0.5:
                self.emit("for (int %s = %s - 1; %s >= 0; %s--)" % (i, n, i, i))
            else:
                self.emit("for (int %s = 0; %s < %s; %s++)" % (i, i, n, i))
            self.emit("    tl_release(%s[%s]);" % (h, i))
        elif form == 1:
            j = self.tmp("j")
            self.emit("tl_tensor *%s[13][13];" % h)
            self.emit("for (int %s = 0; %s < %s; %s++)" % (i, i, n, i))
            self.emit("    for (int %s = 0; %s < 2; %s++)" % (j, j, j))
            self.emit("        %s[%s][%s] = tl_zeros(TL_SHAPE(%s, %s + 1), TL_F32, TL_CPU);" % (h, i, j, c, j))
            self.emit("for (int %s = 0; %s < %s; %s++) {" % (i, i, n, i))
            self.emit("    tl_release(%s[%s][0]);" % (h, i))
            self.emit("    tl_release(%s[%s][1]);" % (h, i))
            self.emit("}")
        else:
            self.top_once("Layer2", ["typedef struct Pair {", "    tl_tensor *w, *b;", "} Pair;"])
            x = self.tmp()
            self.emit("Pair %s[16];" % h)
            self.emit("for (int %s = 0; %s < %s; %s++) {" % (i, i, n, i))
            self.emit("    %s[%s].w = tl_randn(TL_SHAPE(%s, %s), TL_F32, TL_CPU);" % (h, i, c, c))
            self.emit("    %s[%s].b = tl_zeros(TL_SHAPE(%s), TL_F32, TL_CPU);" % (h, i, c))
            self.emit("}")
            self.emit("tl_tensor *%s = tl_ones(TL_SHAPE(1, %s), TL_F32, TL_CPU);" % (x, c))
            self.emit("for (int %s = 0; %s < %s; %s++) {" % (i, i, n, i))
            self.emit("    tl_tensor *y = tl_matmul(%s, %s[%s].w);" % (x, h, i))
            self.emit("    tl_tensor *z = tl_add(y, %s[%s].b);" % (h, i))
            self.emit("    tl_release(y);")
            self.emit("    tl_release(%s);" % x)
            self.emit("    %s = z;" % x)
            self.emit("}")
            self.emit("for (int %s = 0; %s < %s; %s++) {" % (i, i, n, i))
            self.emit("    tl_release(%s[%s].w);" % (h, i))
            self.emit("    tl_release(%s[%s].b);" % (h, i))
            self.emit("}")
            self.live.append({"var": x, "shape": ("1", c), "contig": True, "depth": self.indent})

    def s_globals(self):
        """A global cache allocated on first use and a static local buffer
        that grows, both kept across calls."""
        r = self.r
        self.p.styles.add("globals")
        if r.random() < 0.5:
            if not hasattr(self, "cache_shape"):
                self.cache_shape = (self.size(), self.size())
            self.top_once("g_cache", [
                "static tl_tensor *g_cache;",
                "static tl_tensor *cached(int r, int c)",
                "{",
                "    if (!g_cache)",
                "        g_cache = tl_ones(TL_SHAPE(r, c), TL_F32, TL_CPU);",
                "    return g_cache;",
                "}"])
            a, b = self.cache_shape
            v = self.tmp()
            self.emit("tl_tensor *%s = tl_mul_scalar(cached(%s, %s), 3.0);" % (v, a, b))
            self.live.append({"var": v, "shape": (a, b), "contig": True, "depth": self.indent})
            if r.random() < 0.3:  # released and cleared: the next call makes it again
                self.emit("tl_release(g_cache);")
                self.emit("g_cache = NULL;")
            return
        self.top_once("scratch_buf", [
            "static tl_tensor *scratch_buf(int n)",
            "{",
            "    static tl_tensor *buf = NULL;",
            "    static int cap = 0;",
            "    if (n > cap) {",
            "        tl_release(buf);",
            "        buf = tl_zeros(TL_SHAPE(n), TL_F32, TL_CPU);",
            "        cap = n;",
            "    }",
            "    return buf;",
            "}"])
        s, v = self.size(), self.tmp()
        self.emit("tl_tensor *%s = tl_narrow(scratch_buf(%s), 0, 0, %s);" % (v, s, s))
        self.live.append({"var": v, "shape": (s,), "contig": True, "depth": self.indent,
                          "store": {"scratch_buf"}})

    def s_outparam(self):
        """Helpers that return through an out-parameter, and a helper that
        replaces a field of a struct it gets a pointer to."""
        r = self.r
        self.p.styles.add("outparam")
        form = r.randint(0, 2)
        a, b = self.size(), self.size()
        if form == 0:
            self.top_once("make_pair", [
                "static void make_pair(tl_tensor **out_a, tl_tensor **out_b, int r, int c)",
                "{",
                "    *out_a = tl_zeros(TL_SHAPE(r, c), TL_F32, TL_CPU);",
                "    *out_b = tl_ones(TL_SHAPE(c), TL_F32, TL_CPU);",
                "}"])
            x, y = self.tmp(), self.tmp()
            self.emit("tl_tensor *%s, *%s;" % (x, y))
            self.emit("make_pair(&%s, &%s, %s, %s);" % (x, y, a, b))
            self.live.append({"var": x, "shape": (a, b), "contig": True, "depth": self.indent})
            self.live.append({"var": y, "shape": (b,), "contig": True, "depth": self.indent})
        elif form == 1:
            self.top_once("make_into", [
                "static int make_into(tl_tensor **out, int n)",
                "{",
                "    tl_tensor *t = tl_randn(TL_SHAPE(n), TL_F32, TL_CPU);",
                "    if (!t)",
                "        return -1;",
                "    *out = t;",
                "    return 0;",
                "}"])
            x = self.tmp()
            self.emit("tl_tensor *%s = NULL;" % x)
            self.emit("if (make_into(&%s, %s) != 0)" % (x, a))
            self.emit("    return 1;")
            self.live.append({"var": x, "shape": (a,), "contig": True, "depth": self.indent})
        else:
            self.top_once("Slot", ["typedef struct Slot {", "    tl_tensor *w;", "    int n;", "} Slot;"])
            self.top_once("slot_reset", [
                "static void slot_reset(Slot *s, int n)",
                "{",
                "    tl_release(s->w);",
                "    s->w = tl_ones(TL_SHAPE(n, 2), TL_F32, TL_CPU);",
                "    s->n = n;",
                "}"])
            old = [t for t in self.live if t.get("slot") and t["depth"] <= self.indent]
            if old and r.random() < 0.7:
                t = r.choice(old)
                self.emit("slot_reset(&%s, %s);" % (t["slot"], a))
                t["shape"], t["contig"] = (a, "2"), True
                return
            sl = self.tmp("slot")
            self.emit("Slot %s = {0};" % sl)
            self.emit("slot_reset(&%s, %s);" % (sl, a))
            self.live.append({"var": sl + ".w", "slot": sl, "shape": (a, "2"), "contig": True,
                              "depth": self.indent})

    def s_recursion(self):
        """A helper calling itself on a smaller size, and an op table of
        function pointers (indexed by a constant, a loop counter or chosen
        by a flag)."""
        r = self.r
        self.p.styles.add("recursion")
        t = self.pick()
        if not t:
            return self.s_new()
        v = self.tmp()
        if r.random() < 0.4:
            self.top_once("halve", [
                "static tl_tensor *halve(tl_tensor *x, int n)",
                "{",
                "    if (n <= 1)",
                "        return tl_clone(x);",
                "    tl_tensor *y = tl_mul_scalar(x, 0.5);",
                "    tl_tensor *z = halve(y, n - 1);",
                "    tl_release(y);",
                "    return z;",
                "}"])
            self.emit("tl_tensor *%s = halve(%s, %s);" % (v, t["var"], self.size()))
        else:
            self.top_once("ops", [
                "typedef tl_tensor *(*unary_fn)(tl_tensor *);",
                "static tl_tensor *op_relu(tl_tensor *x)", "{", "    return tl_relu(x);", "}",
                "static tl_tensor *op_exp(tl_tensor *x)", "{", "    return tl_exp(x);", "}",
                "static tl_tensor *op_twice(tl_tensor *x)", "{",
                "    tl_tensor *y = tl_add(x, x);", "    tl_tensor *z = tl_mul_scalar(y, 0.5);",
                "    tl_release(y);", "    return z;", "}",
                "static unary_fn ops[] = {op_relu, op_exp, op_twice};"])
            form = r.randint(0, 3)
            if form == 0:
                self.emit("tl_tensor *%s = ops[%d](%s);" % (v, r.randint(0, 2), t["var"]))
            elif form == 1 and self.sizes:
                self.emit("tl_tensor *%s = ops[%s %% 3](%s);" % (v, r.choice(self.sizes), t["var"]))
            elif form == 2:
                j = self.tmp("j")
                self.emit("tl_tensor *%s = tl_clone(%s);" % (v, t["var"]))
                self.emit("for (int %s = 0; %s < 3; %s++) {" % (j, j, j))
                self.emit("    tl_tensor *y = ops[%s](%s);" % (j, v))
                self.emit("    tl_release(%s);" % v)
                self.emit("    %s = y;" % v)
                self.emit("}")
            else:
                f = self.tmp("fn")
                self.p.flag_env = "SOUND_FLAG"
                self.emit("unary_fn %s = getenv(\"SOUND_FLAG\") ? op_twice : op_exp;" % f)
                self.emit("tl_tensor *%s = %s(%s);" % (v, f, t["var"]))
        self.live.append({"var": v, "shape": t["shape"], "contig": t["contig"], "depth": self.indent})

    def s_chains(self):
        """Chains of views (narrow, select, slice by a step, permute,
        unsqueeze, expand, squeeze), an in-place op through a view, a view
        kept alive past its base's release."""
        r = self.r
        t = self.pick(lambda x: x["contig"] and x["depth"] == self.indent and len(x["shape"]) == 2)
        if not t:
            return self.s_new()
        self.p.styles.add("chains")
        a, b = t["shape"]
        v1, v2 = self.tmp("v"), self.tmp("v")
        form = r.randint(0, 3)
        if form == 0:   # the first row, as a row of a narrow view
            self.emit("tl_tensor *%s = tl_narrow(%s, 0, 0, 1);" % (v1, t["var"]))
            self.emit("tl_tensor *%s = tl_select(%s, 0, 0);" % (v2, v1))
            first, nt = ("1", b), {"var": v2, "shape": (b,), "contig": True}
        elif form == 1:  # every other row, transposed: not contiguous
            half = "((%s) + 1) / 2" % a
            self.emit("tl_tensor *%s = tl_slice(%s, 0, 0, TL_END, 2);" % (v1, t["var"]))
            self.emit("tl_tensor *%s = tl_permute(%s, TL_SHAPE(1, 0));" % (v2, v1))
            first, nt = (half, b), {"var": v2, "shape": (b, half), "contig": False}
        elif form == 2:  # the first row unsqueezed and broadcast (no in-place op on it)
            self.emit("tl_tensor *%s = tl_unsqueeze(%s, 0);" % (v1, t["var"]))
            self.emit("tl_tensor *%s = tl_expand(%s, TL_SHAPE(3, %s, %s));" % (v2, v1, a, b))
            first, nt = ("1", a, b), {"var": v2, "shape": ("3", a, b), "contig": False}
        else:           # the first column, squeezed
            self.emit("tl_tensor *%s = tl_narrow(%s, 1, 0, 1);" % (v1, t["var"]))
            self.emit("tl_tensor *%s = tl_squeeze(%s, 1);" % (v2, v1))
            first, nt = (a, "1"), {"var": v2, "shape": (a,), "contig": False}
        nt["depth"], nt["store"] = self.indent, set(stores(t))
        if nt["contig"] and r.random() < 0.5:  # written through the view: the base sees it
            self.emit("tl_mul_scalar_(%s, 2.0);" % v2)
        self.live.append(nt)
        if r.random() < 0.6:
            self.emit("tl_release(%s);" % v1)
        else:
            self.live.append({"var": v1, "shape": first, "contig": False, "depth": self.indent,
                              "store": set(stores(t))})
        if r.random() < 0.5:  # the base released first, the views kept
            self.release(t)

    def block(self, n):
        """n steps in a nested block; what it makes there is released there."""
        self.indent += 1
        for _ in range(n):
            self.step()
        for t in [t for t in self.live if t["depth"] >= self.indent]:
            if t in self.live:
                self.release(t)
        self.indent -= 1

    def s_loops(self):
        r = self.r
        if self.indent > 2:
            return self.s_new()
        self.p.styles.add("loops")
        i = self.tmp("i")
        if r.random() < 0.5:
            bound = self.size()
            self.emit("for (int %s = 0; %s < %s; %s++) {" % (i, i, bound, i))
            if r.random() < 0.4:
                t = self.pick(lambda x: x["depth"] == self.indent and x["contig"])
                if t:
                    self.top_once("consume", [
                        "static tl_tensor *relu_consume(tl_tensor *x)",
                        "{",
                        "    tl_tensor *y = tl_relu(x);",
                        "    tl_release(x);",
                        "    return y;",
                        "}"])
                    self.emit("    %s = relu_consume(%s);" % (t["var"], t["var"]))
            self.block(r.randint(1, 3))
            self.emit("}")
            return
        # a loop of unknown trip count: it stops on a value read back
        stop = self.size()
        self.emit("for (int %s = 0;; %s++) {" % (i, i))
        self.block(r.randint(1, 2))
        self.indent += 1
        m, f = self.tmp("m"), self.tmp("f")
        self.emit("tl_tensor *%s = tl_full(TL_SHAPE(1), (double)%s, TL_F32, TL_CPU);" % (m, i))
        self.emit("float %s = 0;" % f)
        self.emit("tl_copy_to_host(%s, &%s, sizeof %s);" % (m, f, f))
        self.emit("tl_release(%s);" % m)
        self.emit("if (%s + 1 >= %s)" % (f, stop))
        self.emit("    break;")
        self.indent -= 1
        self.emit("}")

    def s_branches(self):
        r = self.r
        if self.indent > 2:
            return self.s_new()
        self.p.styles.add("branches")
        if self.sizes and r.random() < 0.6:
            cond = "%s %% 2 == 0" % r.choice(self.sizes)
        else:
            self.p.flag_env = "SOUND_FLAG"
            cond = "getenv(\"SOUND_FLAG\")"
        t = self.pick(lambda x: x["depth"] == self.indent and x["contig"])
        if t and r.random() < 0.5:
            self.top_once("consume", [
                "static tl_tensor *relu_consume(tl_tensor *x)",
                "{",
                "    tl_tensor *y = tl_relu(x);",
                "    tl_release(x);",
                "    return y;",
                "}"])
            self.emit("if (%s)" % cond)
            self.emit("    %s = relu_consume(%s);" % (t["var"], t["var"]))
            return
        self.emit("if (%s) {" % cond)
        self.block(r.randint(1, 3))
        if r.random() < 0.5:
            self.emit("} else {")
            self.block(r.randint(1, 2))
        self.emit("}")

    def mode_block(self):
        """A string option selecting a mode, as llama2.c's -m: each arm does
        its own tensor work (released in the arm), an unknown mode exits."""
        r = self.r
        self.p.styles.add("mode")
        self.use_usage()
        self.p.mode_env = "SOUND_MODE"
        self.emit("const char *mode = getenv(\"SOUND_MODE\");")
        self.emit("if (!mode)")
        self.emit("    mode = \"generate\";")
        for k, name in enumerate(("generate", "chat")):
            self.emit("%s (strcmp(mode, \"%s\") == 0) {" % ("if" if k == 0 else "} else if", name))
            self.indent += 1
            made = [self.new_tensor() for _ in range(r.randint(1, 2 + k))]
            if r.random() < 0.5:
                t = made[-1]
                v = self.tmp()
                self.emit("tl_tensor *%s = tl_relu(%s);" % (v, t["var"]))
                made.append({"var": v, "shape": t["shape"], "contig": True, "depth": self.indent})
                self.live.append(made[-1])
            for t in made:
                self.release(t)
            self.indent -= 1
        self.emit("} else {")
        self.emit("    usage();")
        self.emit("}")

    def s_exits(self):
        """An early exit from main when a size has one value: some of the
        tensors released first, the others live at the exit."""
        r = self.r
        if self.indent != 1 or not self.sizes:
            return self.s_new()
        self.p.styles.add("exits")
        self.emit("if (%s == %d) {" % (r.choice(self.sizes), r.randint(1, 4)))
        for t in self.live:
            if r.random() < 0.6:
                self.emit("    tl_release(%s);" % t["var"])
        self.emit("    return 0;" if r.random() < 0.6 else "    exit(0);")
        self.emit("}")

    def program(self):
        r = self.r
        self.inputs()
        self.structs_prelude()
        n = r.randint(3, 9)
        mode_at = r.randint(0, n) if "mode" in self.styles and r.random() < 0.8 else -1
        for k in range(n):
            if k == mode_at:
                self.mode_block()
            self.step()
        for t in list(self.live):
            if r.random() < 0.8:
                self.release(t)
        self.emit("return 0;")
        if getattr(self, "main_fail", False):  # gotos: the label a null handle jumps to
            self.body += ["fail:", "    fprintf(stderr, \"out of memory\\n\");", "    return 1;"]
        head = ["#define _GNU_SOURCE", "#include <stdio.h>", "#include <stdlib.h>",
                "#include <string.h>", "#include <unistd.h>", "#include <tensorlint/tensor.h>", ""]
        body = ["int main(int argc, char **argv)", "{"] + self.body + ["}"]
        self.p.text = "\n".join(head + [t + "\n" for t in self.top] + body) + "\n"
        return self.p


def generate(seed, styles=None):
    return Gen(seed, styles or STYLES).program()


def values(prog, r, same=False):
    """Random values for a run: {input var: value}, and whether each option
    is passed (an input left out takes its default)."""
    vals, given = {}, {}
    common = r.randint(1, MAX_SIZE)
    for i in prog.inputs:
        given[i.var] = i.default is None or r.random() < 0.8
        v = common if same else r.randint(i.lo, i.hi)
        vals[i.var] = v if given[i.var] else i.default
    return vals, given


def run_setup(prog, vals, given, cfg_path):
    """argv, env and the header file's bytes for a run with vals."""
    import struct
    argv, env = [], {}
    pos = sorted((i for i in prog.inputs if i.how == "argv"), key=lambda i: i.key)
    argv += [str(vals[i.var]) for i in pos]
    for i in prog.inputs:
        if i.how == "opt" and given[i.var]:
            argv += [i.key, str(vals[i.var])]
        elif i.how == "env" and given[i.var]:
            env[i.key] = str(vals[i.var])
        elif i.how == "list" and given[i.var]:
            env[i.key] = ",".join("x%d" % k for k in range(vals[i.var]))
        elif i.how == "string" and given[i.var]:
            env[i.key] = "w" * vals[i.var]
        elif i.how == "setting" and given[i.var]:
            env[i.key] = "n=%d" % vals[i.var]
    header = None
    if prog.header_fields:
        fs = [i for i in prog.inputs if i.how == "header"]
        header = struct.pack("<%di" % len(fs), *[vals[i.var] for i in sorted(fs, key=lambda i: i.key)])
        env["SOUND_CFG"] = cfg_path
    return argv, env, header
