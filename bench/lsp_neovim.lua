-- The language server measured through Neovim's own LSP client (0.7,
-- headless): open FILE, then N edits (a space added, then removed, at the
-- end of its longest statement), each timed from the buffer change to the
-- publishDiagnostics of that version, then N hovers over its tensor
-- variables (request_sync round trips).  Prints one JSON line.
-- Neovim itself holds back didChange for debounce_text_changes ms (150 by
-- default; TL_BENCH_CLIENT_DEBOUNCE sets it).
--   TL_CLI=... TL_BENCH_FILE=... TL_BENCH_N=40 \
--     nvim --headless -u NONE -i NONE -n -c "luafile bench/lsp_neovim.lua"
local function main()
local cli, file = os.getenv("TL_CLI"), os.getenv("TL_BENCH_FILE")
local n = tonumber(os.getenv("TL_BENCH_N") or "40")
local published = {}
local id = vim.lsp.start_client({
  name = "tensorlint", cmd = { cli, "lsp" }, root_dir = vim.fn.getcwd(),
  flags = { debounce_text_changes = tonumber(os.getenv("TL_BENCH_CLIENT_DEBOUNCE") or "150") },
  handlers = { ["textDocument/publishDiagnostics"] = function(_, result)
    published[result.version] = vim.loop.hrtime()
  end },
})
vim.cmd("edit " .. file)
local buf = vim.api.nvim_get_current_buf()
vim.bo[buf].filetype = "c"
local t_open = vim.loop.hrtime()
vim.lsp.buf_attach_client(buf, id)
local client = vim.lsp.get_client_by_id(id)
local function wait_version(v)
  assert(vim.wait(20000, function() return published[v] ~= nil end, 1), "no diagnostics")
  return published[v]
end
assert(vim.wait(20000, function() return next(published) ~= nil end, 1), "no diagnostics on open")
local open_ms = (select(2, next(published)) - t_open) / 1e6

local lines = vim.api.nvim_buf_get_lines(buf, 0, -1, false)
local edit_line, hover_at = 1, {}
for k, l in ipairs(lines) do
  if l:match("^    .*;%s*$") and #l > #lines[edit_line] then edit_line = k end
  local s = l:find("tl_tensor %*[%w_]+ = ")
  if s then hover_at[#hover_at + 1] = { line = k - 1, character = s + 10 } end
end
local function stats(xs)
  table.sort(xs)
  return { n = #xs, median = xs[math.floor(#xs / 2) + 1], p90 = xs[math.floor(#xs * 0.9) + 1],
           max = xs[#xs] }
end
local edit_ms = {}
for k = 1, n do
  local len = #vim.api.nvim_buf_get_lines(buf, edit_line - 1, edit_line, false)[1]
  local t = vim.loop.hrtime()
  if k % 2 == 1 then
    vim.api.nvim_buf_set_text(buf, edit_line - 1, len, edit_line - 1, len, { " " })
  else
    vim.api.nvim_buf_set_text(buf, edit_line - 1, len - 1, edit_line - 1, len, { "" })
  end
  edit_ms[#edit_ms + 1] = (wait_version(vim.lsp.util.buf_versions[buf]) - t) / 1e6
end
local hover_ms = {}
for k = 1, n do
  local t = vim.loop.hrtime()
  local r = client.request_sync("textDocument/hover", { textDocument = { uri = vim.uri_from_bufnr(buf) },
                                position = hover_at[(k - 1) % #hover_at + 1] }, 10000, buf)
  assert(r and r.result, "no hover")
  hover_ms[#hover_ms + 1] = (vim.loop.hrtime() - t) / 1e6
end
io.stdout:write(vim.fn.json_encode({ client = "neovim", file = file, lines = #lines, open_ms = open_ms,
  edit_ms = stats(edit_ms), hover_ms = stats(hover_ms) }) .. "\n")
client.stop()
vim.wait(5000, function() return client.is_stopped() end, 10)
end

local ok, err = pcall(main)
if not ok then
  io.stderr:write("FAIL: " .. tostring(err) .. "\n")
  vim.cmd("cq 1")
end
vim.cmd("qa!")
