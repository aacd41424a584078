Generated from docs/symbolic.md by tests/docs/extract.py: do not edit; edit the
page and run `tests/docs/extract.py .` (ctest's docs.examples runs this file
with cram and fails when it no longer matches the page).

  $ . "$TESTDIR/setup.sh"

  $ tensorlint report tests/symbolic/argv_sizes.c | sed -n '/^function main/,$p' | grep -E '^(19|24) |^peak'
  19    x     randn       (batch, seq, 64)  (64*seq, 64, 1)  0       f32    cpu     new                S0       256*batch*seq B  256*batch*seq B        -                     randn allocates
  24    c     contiguous  (32, batch*seq)   (batch*seq, 1)   0       f32    cpu     new                S3       128*batch*seq B  256*batch*seq B        -                     contiguous copied: dims 0 and 1 do not merge (stride 1 != 32 x batch*seq)
  peak: 512*batch*seq + 8192 B at line 24
  $ tensorlint report --bind batch=7 --bind seq=3 tests/symbolic/argv_sizes.c | grep '^peak'
  peak: 16256 B at line 10, live there: S0 5376 B, S1 8 KiB, S2 2688 B
  peak: 18944 B at line 24, live there: S0 5376 B, S1 8 KiB, S2 2688 B, S3 2688 B
  $ tensorlint report samples/checkpoint/decoder_ckpt.c | sed -n '/^function main/,$p' |
  >   grep -E '^(live at end|peak: |  8\*config|sizes known|assumed)|argc < 3|!f is false' | cut -c1-90
  live at end: 0 B
  peak: max(max(max(8*config.seq_len*config.dim*config.n_layers + 28*config.dim + 8*config.h
    8*config.seq_len*config.dim*config.n_layers + 28*config.dim + 8*config.hidden_dim + 4*co
    8*config.seq_len*config.dim*config.n_layers + 32*config.n_heads*((config.dim/config.n_he
    8*config.seq_len*config.dim*config.n_layers + 16*config.dim + 12*config.hidden_dim + 4*c
    8*config.seq_len*config.dim*config.n_layers + 4*config.n_heads*(config.dim/config.n_head
  sizes known at run time: steps (line 128, atoi), config.seq_len (line 123, fread), config.
  assumed (each size >= 1, and):
    argc < 3 is false (line 113; else the run leaves at line 115: return 2)
    !f is false (line 118; else the run leaves at line 120: return 1)
  $ tensorlint report --bind config.dim=64 --bind config.hidden_dim=176 \
  >   --bind config.n_layers=2 --bind config.n_heads=4 --bind config.vocab_size=128 \
  >   --bind config.seq_len=32 --bind steps=12 samples/checkpoint/decoder_ckpt.c |
  >   sed -n '/^function main/,$p' | grep -E '^(peak|moved)' | cut -d, -f1
  peak: 36872 B at line 211
  moved: 5.67 MiB in 1980 calls
  $ tensorlint verify --bind steps=5 --bind dim=2 --arg=5 --arg=2 --arg=3 tests/symbolic/stop_token.c |
  >   grep -E "^(the run's count|verify:)"
  the run's count: pos.iterations = 3 (its iterations, read off the run)
  verify: 15 calls and 8 call sites compared, 98 fields, 0 disagreements
  $ tensorlint report samples/checkpoint/decoder_layers.c | sed -n '/^function main/,$p' |
  >   grep -E '^(live at end|peak: |  16\*config)' | cut -c1-90
  live at end: 0 B
  peak: max(max(16*config.dim*config.dim*config.n_layers + 12*config.dim*config.hidden_dim*c
    16*config.dim*config.dim*config.n_layers + 12*config.dim*config.hidden_dim*config.n_laye
    16*config.dim*config.dim*config.n_layers + 12*config.dim*config.hidden_dim*config.n_laye
    16*config.dim*config.dim*config.n_layers + 12*config.dim*config.hidden_dim*config.n_laye
