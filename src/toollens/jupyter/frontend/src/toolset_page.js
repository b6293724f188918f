// The static `toollens report --html` page's script (bundled into render/static/toolset_page.js
// and inlined in the page: one offline file). It draws the table from the page's table model
// with the widget's own table code, and builds a tool's views when its row opens: each chunk
// of tools' views (HTML rendered and escaped by Python) is stored deflated and base64-encoded,
// and is inflated with the browser's DecompressionStream the first time one of its tools opens.
import { mountTable } from "./toolset_table.js";

function bytesOf(base64) {
  const text = atob(base64.trim());
  const bytes = new Uint8Array(text.length);
  for (let i = 0; i < text.length; i += 1) bytes[i] = text.charCodeAt(i);
  return bytes;
}

/** The JSON value a blob element holds, deflated and base64-encoded by Python. */
async function inflate(node) {
  const stream = new Blob([bytesOf(node.textContent)]).stream().pipeThrough(new DecompressionStream("deflate"));
  return JSON.parse(await new Response(stream).text());
}

function start(root) {
  const data = JSON.parse(root.querySelector("script.tl-ts-data").textContent);
  const detail = root.querySelector(".tl-ts-detail");
  const chunks = new Map(); // first index of a chunk -> the promise of its tools' views
  let open = -1;
  let asked = 0; // the latest open asked for: an older one finishing late is dropped

  // An open tool's Clients view unfolds the client the table's picker names.
  const showClient = (chosen = table.client()) => {
    for (const node of detail.querySelectorAll("details.tl-cl-client")) node.open = node.dataset.client === chosen;
    for (const row of detail.querySelectorAll(".tl-cl-summary tr[data-client]")) {
      row.classList.toggle("tl-cl-chosen", row.dataset.client === chosen);
    }
  };
  const table = mountTable(root.querySelector(".tl-ts-host"), {
    data: () => data,
    selected: () => open,
    onSelect: (index) => { location.hash = `tl-tool-${index}`; },
    href: (index) => `#tl-tool-${index}`,
    onClient: showClient,
  });

  const viewsOf = (index) => {
    const node = [...root.querySelectorAll("script.tl-ts-views")].find((n) => {
      const first = Number(n.dataset.first);
      return first <= index && index < first + Number(n.dataset.count);
    });
    if (!node) return Promise.resolve(null);
    const first = Number(node.dataset.first);
    if (!chunks.has(first)) chunks.set(first, inflate(node));
    return chunks.get(first).then((views) => views[index - first]);
  };

  // A row of an open tool's Clients summary unfolds that client's detail and moves the
  // table's picker to it: the picker and the open tool name one client, both ways.
  detail.addEventListener("click", (event) => {
    const row = event.target.closest(".tl-cl-summary tr[data-client]");
    if (!row || event.target.closest("a")) return;
    table.setClient(row.dataset.client);
    showClient(row.dataset.client);
  });

  const show = async (index) => {
    const ticket = ++asked;
    open = index;
    if (index < 0) { table.draw(); detail.replaceChildren(); return; }
    table.reveal(index); // a tool opened from a link shows its row too
    detail.setAttribute("aria-busy", "true");
    const html = await viewsOf(index);
    if (ticket !== asked) return;
    detail.innerHTML = html ?? ""; // rendered and escaped by Python
    showClient();
    detail.removeAttribute("aria-busy");
    detail.scrollIntoView({ block: "start" });
  };

  const fromHash = () => {
    const found = /^#tl-tool-(\d+)$/.exec(location.hash);
    show(found ? Number(found[1]) : -1);
  };
  window.addEventListener("hashchange", fromHash);
  // The views' chunks come after this script in the page: open a linked tool once they are in.
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", fromHash);
  else fromHash();

  const across = root.querySelector("details.tl-ts-across-more");
  if (across) {
    across.addEventListener("toggle", async () => {
      const body = across.querySelector(".tl-ts-across-body");
      if (!across.open || body.childElementCount) return;
      body.innerHTML = await inflate(across.querySelector("script.tl-ts-blob")); // escaped by Python
    });
  }
}

start(document.currentScript.closest(".tl-root"));
