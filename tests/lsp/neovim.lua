-- Neovim's own LSP client (0.7: vim.lsp.start_client) driving `tensorlint lsp`
-- headless: open, diagnostics, hover, inlay hints, a code action applied
-- (its warning goes), undo (it comes back), a burst of typing, save, close,
-- shutdown.  Run: nvim --headless -u NONE -i NONE -n -c "luafile neovim.lua"
-- with TL_CLI (the tensorlint executable) and TL_LSP_SAMPLE (tests/lsp/sample.c).
-- Exits 0 when every step passed (:cq with status 1 at the first failure).
local function out(s) io.stdout:write(s .. "\n") end
local function fail(msg) error(msg, 0) end
local function check(cond, msg) if not cond then fail(msg) end end

local function main()
local cli = os.getenv("TL_CLI")
local sample = os.getenv("TL_LSP_SAMPLE")
check(cli and sample, "TL_CLI and TL_LSP_SAMPLE must be set")
local dir = vim.fn.tempname()
vim.fn.mkdir(dir, "p")
local path = dir .. "/prog.c"
vim.fn.writefile(vim.fn.readfile(sample), path)

local published = {}   -- the last publishDiagnostics params
local n_published = 0
local exit_code = nil
local client_id = vim.lsp.start_client({
  name = "tensorlint",
  cmd = { cli, "lsp", "--log=info" },
  root_dir = dir,
  handlers = {
    ["textDocument/publishDiagnostics"] = function(err, result, ctx, config)
      published = vim.deepcopy(result)  -- the default handler rewrites its argument
      n_published = n_published + 1
      vim.lsp.diagnostic.on_publish_diagnostics(err, result, ctx, config)
    end,
  },
  on_exit = function(code, signal) exit_code = code end,
})
check(client_id, "start_client failed")

local function codes()
  local seen = {}
  for _, d in ipairs(published.diagnostics or {}) do seen[d.code] = d end
  return seen
end
-- wait for a publish after count `after` that satisfies pred
local function wait_publish(after, pred, what)
  local ok = vim.wait(20000, function()
    return n_published > after and pred(codes())
  end, 10)
  check(ok, "no diagnostics " .. what)
end

vim.cmd("edit " .. path)
local bufnr = vim.api.nvim_get_current_buf()
vim.bo[bufnr].filetype = "c"
vim.lsp.buf_attach_client(bufnr, client_id)
local client = vim.lsp.get_client_by_id(client_id)
local uri = vim.uri_from_bufnr(bufnr)

-- 1. open: the hidden copy and the double copy, with notes and doc links
wait_publish(0, function(c) return c["hidden-copy"] and c["double-copy"] end, "on open")
local hc = codes()["hidden-copy"]
check(hc.range.start.line == 11 and hc.range.start.character == 27,
      "hidden-copy range " .. vim.inspect(hc.range))   -- "/* é */" is 7 UTF-16 units
check(hc.relatedInformation and hc.relatedInformation[1].location.range.start.line == 10,
      "hidden-copy note")
check(hc.codeDescription and hc.codeDescription.href:match("hidden%-copy%.md$"), "doc link")
out("open: " .. #published.diagnostics .. " diagnostics; " .. hc.message)

-- 2. hover on q (markdown: the client asks for it)
local r = client.request_sync("textDocument/hover",
  { textDocument = { uri = uri }, position = { line = 11, character = 23 } }, 10000, bufnr)
local value = r and r.result and r.result.contents.value or ""
check(value:find("(4, 8192)", 1, true) and value:find("reshape copied", 1, true),
      "hover: " .. value)
check(r.result.contents.kind == "markdown", "hover kind")
out("hover: " .. value:gsub("\n.*", ""))

-- 3. inlay hints
r = client.request_sync("textDocument/inlayHint",
  { textDocument = { uri = uri }, range = { start = { line = 0, character = 0 },
    ["end"] = { line = 20, character = 0 } } }, 10000, bufnr)
local labels = {}
for _, h in ipairs(r.result or {}) do labels[#labels + 1] = h.label end
check(#labels == 4, "inlay hints: " .. vim.inspect(labels))
check(labels[3] == "(4, 8192) f32, new 128 KiB", "hint of q: " .. tostring(labels[3]))
out("inlay hints: " .. table.concat(labels, " | "))

-- 4. the double copy's quick fix, applied as Neovim applies a code action
r = client.request_sync("textDocument/codeAction",
  { textDocument = { uri = uri }, range = { start = { line = 12, character = 0 },
    ["end"] = { line = 12, character = 0 } }, context = { diagnostics = {} } }, 10000, bufnr)
local fix
for _, a in ipairs(r.result or {}) do
  if a.kind == "quickfix" and a.title:match("^Fix") then fix = a end
end
check(fix, "no quick fix: " .. vim.inspect(r.result))
local before = n_published
vim.lsp.util.apply_workspace_edit(fix.edit, client.offset_encoding or "utf-16")
check(vim.api.nvim_buf_get_lines(bufnr, 12, 13, false)[1]:find("tl_clone(q)", 1, true),
      "the fix did not edit the line")
wait_publish(before, function(c) return not c["double-copy"] and c["hidden-copy"] end,
             "after the fix")
out("fix applied: double-copy gone")

-- 5. undo brings it back
before = n_published
vim.cmd("undo")
wait_publish(before, function(c) return c["double-copy"] end, "after undo")
out("undo: double-copy back")

-- 6. a burst of typing: a comment typed a character at a time on line 13
before = n_published
local word = " // hello"
local line = vim.api.nvim_buf_get_lines(bufnr, 13, 14, false)[1]
for i = 1, #word do
  vim.api.nvim_buf_set_text(bufnr, 13, #line + i - 1, 13, #line + i - 1, { word:sub(i, i) })
end
local version = vim.lsp.util.buf_versions[bufnr]
wait_publish(before, function(c) return published.version == version end, "after the burst")
check(n_published - before <= 2, "the burst was analysed " .. (n_published - before) .. " times")
out("burst: " .. #word .. " edits, " .. (n_published - before) .. " publish(es), version " .. version)

-- 7. NOLINT suppression from its code action
r = client.request_sync("textDocument/codeAction",
  { textDocument = { uri = uri }, range = { start = { line = 11, character = 0 },
    ["end"] = { line = 11, character = 0 } }, context = { diagnostics = {} } }, 10000, bufnr)
local nolint
for _, a in ipairs(r.result or {}) do
  if a.title:match("^Suppress %[hidden%-copy%]") then nolint = a end
end
check(nolint, "no NOLINT action")
before = n_published
vim.lsp.util.apply_workspace_edit(nolint.edit, client.offset_encoding or "utf-16")
wait_publish(before, function(c) return not c["hidden-copy"] end, "after NOLINT")
out("NOLINT: hidden-copy suppressed")

-- 8. save, close
before = n_published
vim.cmd("write")
wait_publish(before, function(c) return true end, "after save")
check(vim.fn.readfile(path)[12]:find("NOLINT(hidden-copy)", 1, true), "saved text")
before = n_published
vim.cmd("bdelete!")
wait_publish(before, function(c) return #published.diagnostics == 0 end, "after close")
out("save and close: ok")

-- 9. shutdown and exit: status 0
client.stop()
check(vim.wait(10000, function() return exit_code ~= nil end, 10), "the server did not exit")
check(exit_code == 0, "exit status " .. tostring(exit_code))
out("shutdown: exit status 0")
vim.fn.delete(dir, "rf")
end

local ok, err = pcall(main)
if not ok then
  out("FAIL: " .. tostring(err))
  vim.cmd("cq 1")
end
vim.cmd("qa!")
