// The Toolset view's table in the widget: the table model arrives as traits (Python's
// render/toolset_table.py: columns, rows with their cells, shared sources, levels) and is
// drawn, sorted, filtered and paged by toolset_table.js, the same code as the static page's.
// A clicked row is reported to Python, which opens that tool's explorer under the table.
import { el } from "./dom.js";
import { mountTable } from "./toolset_table.js";

export function renderToolset({ model, el: host }) {
  const root = el("div", { class: "tl-root tl-ts" });
  root.append(el("style", { text: model.get("css") }));
  const title = el("h3", { text: model.get("label") });
  const totals = el("div");
  const tableHost = el("div", { class: "tl-ts-host" });
  const across = el("div", { class: "tl-ts-across" });
  root.append(title, totals, tableHost, across);
  host.append(root);

  const table = mountTable(tableHost, {
    data: () => ({
      columns: model.get("columns"),
      rows: model.get("rows"),
      groups: model.get("groups"),
      levels: model.get("levels"),
    }),
    selected: () => model.get("selected"),
    onSelect: (index) => { model.set("selected", index); model.save_changes(); },
    client: model.get("client"),
    onClient: (client) => { model.set("client", client); model.save_changes(); },
  });
  const showHtml = () => {
    totals.innerHTML = model.get("totals"); // rendered and escaped by Python
    across.innerHTML = model.get("across");
    title.textContent = model.get("label");
  };
  for (const trait of ["rows", "columns", "groups", "levels", "selected"]) model.on(`change:${trait}`, table.draw);
  model.on("change:client", () => table.setClient(model.get("client")));
  model.on("change:totals", showHtml);
  model.on("change:across", showHtml);
  showHtml();
}
