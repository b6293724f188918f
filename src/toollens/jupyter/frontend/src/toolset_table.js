// The toolset table, drawn from the table model Python builds (render/toolset_table.py:
// columns, rows with their cells, the sources rows share, the filter's levels). The same code
// runs in the widget (bundled into static/explorer.js) and in the static `report --html` page
// (render/static/toolset_page.js, inlined in the page): one filter, one sort, one pager.
// Every name and message is set as text, never as HTML.
import { el } from "./dom.js";

const PAGE = 100; // when the model does not say (render/toolset_table.py's PAGE_ROWS)

/** The filter, as render/toolset_table.py's row_matches: the query in the row's search text
 * (any case) and its rank at most the level's (a level not offered keeps every row). */
export function matches(row, query, level, levels) {
  const chosen = levels.find((lv) => lv[0] === level);
  const most = chosen ? chosen[2] : null;
  return (most === null || row.rank <= most) && row.search.includes(query.toLowerCase());
}

/** The rows the filter keeps, sorted by column `sort` (its cells' keys) when there is one. */
export function visibleRows(data, { query = "", level = "", sort = null, up = true } = {}) {
  let rows = data.rows.filter((r) => matches(r, query, level, data.levels));
  if (sort !== null) {
    rows = rows.slice().sort((a, b) => {
      const x = a.cells[sort][1], y = b.cells[sort][1];
      const c = typeof x === "number" && typeof y === "number" ? x - y : String(x).localeCompare(String(y));
      return (up ? c : -c) || a.index - b.index;
    });
  }
  return rows;
}

const SEVERITIES = ["error", "warning", "info"];

function badge(text, state) {
  const sev = state === "not read" ? "error" : state;
  return el("span", { class: `tl-badge${SEVERITIES.includes(sev) ? ` tl-sev-${sev}` : ""}`, text });
}

// What a tool's definition costs, with a bar scaled to the costliest tool of the set.
function tokensCell(cell, most) {
  const tokens = cell[1];
  if (typeof tokens !== "number" || tokens < 0) return "-";
  const width = most ? Math.max(1, Math.round((60 * tokens) / most)) : 1;
  return el("span", { class: "tl-ts-tokens" },
    el("span", { class: "tl-ts-cost", style: `width: ${width}px` }), cell[0]);
}

function cellContent(kind, cell, most) {
  if (kind === "verdict" || kind === "client") return badge(cell[0], cell[2]);
  if (kind === "tokens") return tokensCell(cell, most);
  return cell[0];
}

/**
 * Draw the table into `host` and keep it drawn.
 *   data():      the table model's JSON ({columns, rows, groups, levels, page})
 *   selected():  the index of the open tool (-1: none)
 *   onSelect(i): a row was clicked
 *   href(i):     optional: the tool's name links there
 *   client:      optional: the client whose verdict column shows first
 *   onClient(c): optional: the client picker chose client c
 * A table with client columns (kind "client", one per client: render/toolset_table.py's
 * client_columns) shows one of them, the one its client picker names.
 * Returns { draw, reveal, client, setClient }: draw again when the data or the selection
 * changed; reveal(i) turns to the page that shows tool i (when the filter keeps it) and
 * draws; client() is the client shown, setClient(c) shows client c.
 */
export function mountTable(host, { data, selected, onSelect, href = null, client = "", onClient = null }) {
  host.replaceChildren(); // a page may hold a drawing of the first rows, for its first paint
  const shared = el("div", { class: "tl-ts-shared" });
  const filter = el("input", { type: "search", class: "tl-ts-filter", placeholder: "filter tools",
    "aria-label": "filter tools" });
  const level = el("select", { class: "tl-ts-level", "aria-label": "worst finding" });
  const prev = el("button", { type: "button", class: "tl-ts-prev", text: "\u2039", "aria-label": "previous page" });
  const next = el("button", { type: "button", class: "tl-ts-next", text: "\u203a", "aria-label": "next page" });
  const where = el("span", { class: "tl-muted tl-ts-where" });
  const picker = el("select", { class: "tl-ts-client", "aria-label": "client" });
  const pickerBox = el("label", { class: "tl-ts-client-box" }, "client ", picker);
  const table = el("table", { class: "tl-ts-tools" });
  host.append(shared, el("div", { class: "tl-ts-bar" }, filter, level, prev, where, next, pickerBox), table);
  const state = { sort: null, up: true, page: 0, client };
  let clientsShown = null;
  const clientsOf = (model) => model.columns.filter((c) => c.kind === "client").map((c) => c.title);
  const chosenClient = () => {
    const names = clientsOf(data());
    return names.includes(state.client) ? state.client : (names[0] ?? "");
  };
  // The drawn columns: all but the client columns, of which the chosen one.
  const drawnColumns = (model) => {
    const chosen = chosenClient();
    return model.columns.map((col, i) => [col, i]).filter(([col]) => col.kind !== "client" || col.title === chosen);
  };
  let levelsShown = null;

  const shownRows = () => visibleRows(data(), { query: filter.value, level: level.value, sort: state.sort, up: state.up });
  const draw = () => {
    const model = data();
    if (levelsShown !== model.levels) {
      const keep = level.value;
      level.replaceChildren(...model.levels.map(([value, label]) => el("option", { value, text: label })));
      level.value = keep;
      levelsShown = model.levels;
    }
    const names = clientsOf(model);
    if (clientsShown !== names.join("\n")) {
      picker.replaceChildren(...names.map((name) => el("option", { value: name, text: name })));
      clientsShown = names.join("\n");
    }
    pickerBox.hidden = names.length === 0;
    picker.value = chosenClient();
    shared.replaceChildren(...model.groups.map((line) => el("div", { class: "tl-ts-source", text: line })));
    const columns = drawnColumns(model);
    const head = el("tr");
    columns.forEach(([col, i]) => {
      const th = el("th", { scope: "col", text: col.title });
      if (state.sort === i) th.setAttribute("aria-sort", state.up ? "ascending" : "descending");
      th.addEventListener("click", () => {
        state.up = !(state.sort === i && state.up);
        state.sort = i;
        state.page = 0;
        draw();
      });
      head.append(th);
    });
    const rows = shownRows();
    const size = model.page || PAGE;
    const pages = Math.max(1, Math.ceil(rows.length / size));
    state.page = Math.min(state.page, pages - 1);
    const shown = rows.slice(state.page * size, (state.page + 1) * size);
    const most = Math.max(0, ...model.rows.map((r) => r.tokens ?? 0));
    const open = selected();
    const tool = model.columns.findIndex((c) => c.id === "tool");
    const body = el("tbody");
    for (const r of shown) {
      const tr = el("tr", { class: `tl-ts-row${r.index === open ? " tl-ts-selected" : ""}`,
        "data-index": String(r.index), "data-rank": String(r.rank) });
      columns.forEach(([col, i]) => {
        const content = cellContent(col.kind, r.cells[i], most);
        const linked = href && i === tool ? el("a", { href: href(r.index) }, content) : content;
        tr.append(el("td", col.kind === "client" ? { "data-client": col.title } : {}, linked));
      });
      tr.addEventListener("click", (event) => {
        if (!(href && event.target.closest("a"))) onSelect(r.index); // a link opens it itself
      });
      body.append(tr);
    }
    table.replaceChildren(el("thead", {}, head), body);
    where.textContent = rows.length
      ? `${state.page * size + 1}\u2013${state.page * size + shown.length} of ${rows.length}`
      : "no tools match";
    prev.disabled = state.page === 0;
    next.disabled = state.page >= pages - 1;
  };
  filter.addEventListener("input", () => { state.page = 0; draw(); });
  level.addEventListener("change", () => { state.page = 0; draw(); });
  picker.addEventListener("change", () => {
    state.client = picker.value;
    draw();
    if (onClient) onClient(state.client);
  });
  prev.addEventListener("click", () => { state.page -= 1; draw(); });
  next.addEventListener("click", () => { state.page += 1; draw(); });
  const reveal = (index) => {
    const at = shownRows().findIndex((r) => r.index === index);
    if (at >= 0) state.page = Math.floor(at / (data().page || PAGE));
    draw();
  };
  // The client shown, set from outside (the widget's trait): no onClient, it came from there.
  const setClient = (name) => { state.client = name; draw(); };
  draw();
  return { draw, reveal, client: chosenClient, setClient };
}
