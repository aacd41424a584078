Generated from docs/diagrams.md by tests/docs/extract.py: do not edit; edit the
page and run `tests/docs/extract.py .` (ctest's docs.examples runs this file
with cram and fails when it no longer matches the page).

  $ . "$TESTDIR/setup.sh"

  $ tensorlint lifetimes --format=text --width=100 tests/diagrams/formulas.c
  storage lifetimes of main(): 5*steps + 4 calls, peak max(4*dim*dim + 8*steps*dim + 4*dim + 64, 4*dim*dim + 4*steps*dim + 8*steps + 8*dim + 64) B, live at the end 0 B
                            repeated runs, drawn once │                    [loop at line 24 ×steps]
  storage  tensors     size                   lines   │20   21   22   23   25   26   29   30   31
                                                      │zero rand ones zero matm cat  tran matm soft
  S0       table       64 B                   20 → 40 │▚▚▚▚ ▚▚▚▚ ▚▚▚▚ ▚▚▚▚ ▚▚▚▚ ▚▚▚▚ ▚▚▚▚ ▚▚▚▚ ▚▚▚▚
  S1       w           4*dim*dim B            21 → 39 │···· ▚▚▚▚ ▚▚▚▚ ▚▚▚▚ ▚▚▚▚ ▚▚▚▚ ▚▚▚▚ ▚▚▚▚ ▚▚▚▚
  S2       x           4*dim B                22 → 38 │···· ···· ░░░░ ░░░░ ░░░░ ░░░░ ░░░░ ░░░░ ░░░░
  S3       cache       0 B                    23 → 27 │···· ···· ···· ░░░░ ···· ···· ···· ···· ····
  S4 … ×2  row         4*dim B                25 → 35 │···· ···· ···· ···· ░░░░ ░░░░ ░░░░ ░░░░ ░░░░
  S5 … ×2  longer, kt  4*steps*dim B          26 → 27 │···· ···· ···· ···· ···· ▚▚▚▚ ▚▚▚▚ ▚▚▚▚ ▚▚▚▚
  S6 … ×2  scores      4*steps B              30 → 33 │···· ···· ···· ···· ···· ···· ···· ▚▚▚▚ ▚▚▚▚
  S7 … ×2  p           4*steps B              31 → 32 │···· ···· ···· ···· ···· ···· ···· ···· ▚▚▚▚
  S8       longer      4*steps*dim - 4*dim B  26 → 27 │···· ···· ···· ···· ▚▚▚▚ ▚▚▚▚ ···· ···· ····
                                  live after the call │ 64B   L1   L2   L2   L3   L4   L5   L6   L7
                                                      │                       peak ^              ^
  run: loop at line 24 ×steps, calls at lines 25 to 31, the iteration t = steps - 1 drawn
  legend: ░ ▒ ▓ █ a live storage's share of the peak, by quarters, where the run-time sizes decide it;
          ▚ live, its share depends on them; ? size unknown. Live totals: a number, ? unknown, or a
          formula:
         L1 = 4*dim*dim + 64 B after line 21 (randn)
         L2 = 4*dim*dim + 4*dim + 64 B after line 22 (ones)
         L3 = 4*dim*dim + 4*steps*dim + 4*dim + 64 B after line 25 (matmul)
         L4 = 4*dim*dim + 8*steps*dim + 4*dim + 64 B after line 26 (cat), a peak candidate (the
           report's line 26)
         L5 = 4*dim*dim + 4*steps*dim + 8*dim + 64 B after line 29 (transpose)
         L6 = 4*dim*dim + 4*steps*dim + 4*steps + 8*dim + 64 B after line 30 (matmul)
         L7 = 4*dim*dim + 4*steps*dim + 8*steps + 8*dim + 64 B after line 31 (softmax), a peak
           candidate (the report's line 31)
         peak = max(L4, L7) B
  note: A run of calls that repeats back to back (a loop's iterations, a function called again and
        again) is drawn once with its count: the last repetition that reaches a peak candidate, else
        the last; a loop over run-time sizes is analysed for its first iteration and the ones that
        stand for the others, taken at the counter the run: line names; --expand draws every call.
