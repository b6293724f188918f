// The Toolset view's table: rows arrive as data (names and messages are set as text, never
// as HTML); this file sorts, filters and pages them, and reports a clicked row to Python,
// which opens that tool's explorer under the table. Paged, so 1,000 tools stay quick.
const PAGE = 100;
const RANK = { error: 0, warning: 1, info: 2, ok: 2, "not read": 0, "not checked": 3 };

function el(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (k === "class") node.className = v;
    else if (k === "text") node.textContent = v;
    else node.setAttribute(k, v);
  }
  for (const c of children) if (c !== null && c !== undefined) node.append(c);
  return node;
}

function badge(text) {
  const known = ["error", "warning", "info"].includes(text);
  return el("span", { class: `tl-badge${known ? ` tl-sev-${text}` : ""}`, text });
}

// What a tool's definition costs, with a bar scaled to the costliest tool of the set.
function tokensCell(tokens, most) {
  if (tokens === null || tokens === undefined) return "-";
  const width = most ? Math.max(1, Math.round((60 * tokens) / most)) : 1;
  return el("span", { class: "tl-ts-tokens" },
    el("span", { class: "tl-ts-cost", style: `width: ${width}px` }), String(tokens));
}

function columns(providers, rows) {
  const most = Math.max(0, ...rows.map((r) => r.tokens ?? 0));
  const cols = [
    { title: "#", key: (r) => r.index, cell: (r) => String(r.index + 1) },
    { title: "tool", key: (r) => r.name, cell: (r) => r.name + (r.role ? ` (${r.role})` : "") },
    { title: "source", key: (r) => r.source, cell: (r) => (r.error ? `${r.source}: ${r.error}` : r.source) },
    { title: "params", key: (r) => r.parameters ?? -1, cell: (r) => (r.parameters === null ? "-" : String(r.parameters)) },
    { title: "tokens", key: (r) => r.tokens ?? -1, cell: (r) => tokensCell(r.tokens, most) },
  ];
  for (const p of providers) {
    cols.push({ title: p, key: (r) => RANK[r.providers[p]] ?? 9, cell: (r) => badge(r.providers[p]) });
  }
  cols.push(
    { title: "strict", key: (r) => r.strict, cell: (r) => r.strict },
    { title: "lint", key: (r) => r.lint, cell: (r) => String(r.lint) },
    { title: "findings", key: (r) => r.findings, cell: (r) => String(r.findings) },
  );
  return cols;
}

export function renderToolset({ model, el: host }) {
  const root = el("div", { class: "tl-root tl-ts" });
  root.append(el("style", { text: model.get("css") }));
  const title = el("h3", { text: model.get("label") });
  const totals = el("div");
  const filter = el("input", { type: "search", class: "tl-ts-filter", placeholder: "filter tools" });
  const level = el("select", { class: "tl-ts-level" },
    el("option", { value: "", text: "every tool" }),
    el("option", { value: "0", text: "error or worse" }),
    el("option", { value: "1", text: "warning or worse" }));
  const prev = el("button", { type: "button", class: "tl-ts-prev", text: "\u2039" });
  const next = el("button", { type: "button", class: "tl-ts-next", text: "\u203a" });
  const where = el("span", { class: "tl-muted tl-ts-where" });
  const table = el("table", { class: "tl-ts-tools" });
  const across = el("div", { class: "tl-ts-across" });
  root.append(title, totals,
    el("div", { class: "tl-ts-bar" }, filter, level, prev, where, next), table, across);
  host.append(root);

  const state = { sort: null, up: true, page: 0 };
  const visible = () => {
    const text = filter.value.toLowerCase();
    const want = level.value === "" ? null : Number(level.value);
    let rows = model.get("rows").filter((r) =>
      (want === null || r.rank <= want) &&
      (!text || `${r.name} ${r.source} ${r.error ?? ""}`.toLowerCase().includes(text)));
    if (state.sort !== null) {
      const key = state.sort.key;
      rows = rows.slice().sort((a, b) => {
        const x = key(a), y = key(b);
        const c = typeof x === "number" && typeof y === "number" ? x - y : String(x).localeCompare(String(y));
        return (state.up ? c : -c) || a.index - b.index;
      });
    }
    return rows;
  };
  const draw = () => {
    const cols = columns(model.get("providers"), model.get("rows"));
    const head = el("tr");
    cols.forEach((col) => {
      const th = el("th", { scope: "col", text: col.title });
      if (state.sort && state.sort.title === col.title) th.setAttribute("aria-sort", state.up ? "ascending" : "descending");
      th.addEventListener("click", () => {
        state.up = !(state.sort && state.sort.title === col.title && state.up);
        state.sort = col;
        state.page = 0;
        draw();
      });
      head.append(th);
    });
    const rows = visible();
    const pages = Math.max(1, Math.ceil(rows.length / PAGE));
    state.page = Math.min(state.page, pages - 1);
    const shown = rows.slice(state.page * PAGE, (state.page + 1) * PAGE);
    const body = el("tbody");
    const selected = model.get("selected");
    for (const r of shown) {
      const tr = el("tr", { class: `tl-ts-row${r.index === selected ? " tl-ts-selected" : ""}`, "data-index": String(r.index) });
      for (const col of cols) tr.append(el("td", {}, col.cell(r)));
      tr.addEventListener("click", () => { model.set("selected", r.index); model.save_changes(); });
      body.append(tr);
    }
    table.replaceChildren(el("thead", {}, head), body);
    where.textContent = rows.length
      ? `${state.page * PAGE + 1}\u2013${state.page * PAGE + shown.length} of ${rows.length}`
      : "no tools match";
    prev.disabled = state.page === 0;
    next.disabled = state.page >= pages - 1;
  };
  const showHtml = () => {
    totals.innerHTML = model.get("totals"); // rendered and escaped by Python
    across.innerHTML = model.get("across");
    title.textContent = model.get("label");
  };
  filter.addEventListener("input", () => { state.page = 0; draw(); });
  level.addEventListener("change", () => { state.page = 0; draw(); });
  prev.addEventListener("click", () => { state.page -= 1; draw(); });
  next.addEventListener("click", () => { state.page += 1; draw(); });
  for (const trait of ["rows", "providers", "selected"]) model.on(`change:${trait}`, draw);
  model.on("change:totals", showHtml);
  model.on("change:across", showHtml);
  showHtml();
  draw();
}
