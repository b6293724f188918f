// The toollens explorer and diff widgets for anywidget: one ESM for every front end
// (JupyterLab, Notebook 7, Voila, VS Code, Colab, marimo). The views' HTML comes from
// Python; this file places it, hosts the editor and turns controls into trait changes.
import { el } from "./dom.js";
import { SourceEditor } from "./editor.js";
import { wireRemedies } from "./remedy.js";
import { renderToolset } from "./toolset.js";
import { tryView } from "./tryit.js";
import { applyOps, keepInSight, setPanel, wireClickThrough } from "./views.js";

function labelled(text, control) {
  return el("label", { class: "tl-ctl" }, el("span", { text }), control);
}

function select(model, trait, choicesTrait, names = {}) {
  const node = el("select", { "data-trait": trait });
  // A list trait of choices, or a fixed list (shown through `names`).
  const choices = () => (Array.isArray(choicesTrait) ? choicesTrait : model.get(choicesTrait));
  const fill = () => {
    node.replaceChildren(...choices().map((c) => el("option", { value: c, text: names[c] || c })));
    node.value = model.get(trait);
  };
  fill();
  node.addEventListener("change", () => { model.set(trait, node.value); model.save_changes(); });
  model.on(`change:${trait}`, () => { node.value = model.get(trait); });
  if (!Array.isArray(choicesTrait)) model.on(`change:${choicesTrait}`, fill);
  return node;
}

function textInput(model, trait, placeholder) {
  const node = el("input", { type: "text", placeholder, "data-trait": trait });
  node.value = model.get(trait);
  node.addEventListener("input", () => { model.set(trait, node.value); model.save_changes(); });
  model.on(`change:${trait}`, () => { if (node.value !== model.get(trait)) node.value = model.get(trait); });
  return node;
}

function toolbar(model, root) {
  const strict = el("input", { type: "checkbox", "data-trait": "strict" });
  strict.checked = model.get("strict");
  strict.addEventListener("change", () => { model.set("strict", strict.checked); model.save_changes(); });
  model.on("change:strict", () => { strict.checked = model.get("strict"); });
  // The strict diff's layout: the kernel renders and sends only the one shown.
  const sbs = el("input", { type: "checkbox", class: "tl-sbs-toggle" });
  const layout = () => {
    sbs.checked = model.get("side_by_side");
    root.classList.toggle("tl-sbs", sbs.checked);
  };
  layout();
  model.on("change:side_by_side", layout);
  sbs.addEventListener("change", () => {
    root.classList.toggle("tl-sbs", sbs.checked);
    model.set("side_by_side", sbs.checked);
    model.save_changes();
  });
  const apply = el("button", { type: "button", class: "tl-apply", text: "Apply",
    title: "Bind the edited function in the notebook namespace" });
  const sync = () => { apply.disabled = !model.get("can_apply"); };
  sync();
  model.on("change:can_apply", sync);
  apply.addEventListener("click", () => model.send({ type: "apply" }));
  // Changed less often: the strict diff's layout and the name and description overrides
  // fold away, so the bar stays one row in a notebook's output at 1,000 px.
  const overrides = el("details", { class: "tl-more" },
    el("summary", { text: "more" }),
    el("div", { class: "tl-more-body" },
      labelled("side by side", sbs),
      textInput(model, "name_override", "name override"),
      textInput(model, "description_override", "description override")));
  return el("div", { class: "tl-toolbar" },
    labelled("strict", strict),
    labelled("provider", select(model, "provider", "providers")),
    labelled("docstring", select(model, "docstring_style", "docstring_styles")),
    labelled("defaults", select(model, "optional_defaults", "optional_defaults_choices")),
    overrides,
    apply);
}

/** Slots for the views, from Python's declaration: the side-by-side views, then the rest. */
function slotsFor(model) {
  const views = el("div", { class: "tl-views" });
  const below = el("div", { class: "tl-below" });
  const areas = model.get("panel_areas") || {};
  const slots = {};
  for (const key of model.get("panel_order")) {
    slots[key] = el("div", { class: `tl-slot tl-slot-${key}`, "data-panel": key });
    (areas[key] === "below" ? below : views).append(slots[key]);
  }
  return { slots, panels: el("div", { class: "tl-panels" }, views, below) };
}

function renderExplorer({ model, el: host }) {
  const root = el("div", { class: "tl-root tl-xp" });
  root.append(el("style", { text: model.get("css") }));
  const note = el("div", { class: "tl-explorer-note" });
  const editorBox = el("div", { class: "tl-editor" });
  const banner = el("div", { class: "tl-banner" });
  // The change list, and beside it what it compares with (the schema as opened, or as
  // last applied).
  const changes = el("div", { class: "tl-changes-body" });
  const since = labelled("since", select(model, "changes_since", ["opened", "applied"],
    { opened: "opened", applied: "last Apply" }));
  since.classList.add("tl-since");
  const changesBox = el("div", { class: "tl-panel tl-panel-changes" }, since, changes);
  const { slots, panels } = slotsFor(model);
  // The Try-it view sits under the side-by-side views, above the full-width rows.
  const trying = tryView(model);
  panels.insertBefore(trying.section, panels.lastChild);
  const bar = toolbar(model, root);
  root.append(bar, note,
    el("div", { class: "tl-top" }, el("div", { class: "tl-edit-col" }, editorBox, banner), changesBox),
    panels);
  host.append(root);

  const editor = new SourceEditor(editorBox, model.get("source"), (text) => {
    model.set("source", text);
    model.save_changes();
  });
  editor.setReadOnly(model.get("read_only"));
  editorBox.tlView = editor.view; // for tests and tools driving the page: the CodeMirror view
  wireClickThrough(panels, editor, model);
  banner.after(wireRemedies(model, editor));
  // The Frameworks view's pair picker: two selects rendered by Python (data-tl-pair="a"|"b").
  panels.addEventListener("change", (event) => {
    const picked = event.target.closest && event.target.closest("select[data-tl-pair]");
    if (!picked) return;
    const side = (which) => panels.querySelector(`select[data-tl-pair="${which}"]`).value;
    model.set("frameworks_pair", [side("a"), side("b")]);
    model.save_changes();
  });
  // The Clients view's client picker (a select rendered by Python: data-tl-client), and its
  // summary's rows, each naming a client (data-client).
  const pickClient = (client) => { model.set("client", client); model.save_changes(); };
  panels.addEventListener("change", (event) => {
    const picked = event.target.closest && event.target.closest("select[data-tl-client]");
    if (picked) pickClient(picked.value);
  });
  panels.addEventListener("click", (event) => {
    const row = event.target.closest && event.target.closest(".tl-cl-summary tr[data-client]");
    if (row && !event.target.closest("a")) pickClient(row.dataset.client);
  });

  // Every view is its base (sent whole now and then) with the patch that makes it current:
  // an edit syncs a few lines, and only the nodes that differ are touched (and flashed).
  // Switching the strict diff's layout shows the same content again: nothing to flash.
  // Only the views whose base or patch changed are rebuilt: an edit usually touches two of
  // five, and rebuilding a 240-parameter tool's view from its base costs a copy of it.
  const sideBySide = (html) => html.includes('class="tl-sbs-view"');
  let queued = false;
  const seen = {};
  const showPanels = (flash) => {
    queued = false;
    const bases = model.get("panel_base") || {};
    const patches = model.get("panel_patch") || {};
    for (const [key, slot] of Object.entries(slots)) {
      const base = bases[key] || "";
      const ops = JSON.stringify(patches[key] || []);
      const last = seen[key];
      if (last && last.base === base && last.ops === ops) continue;
      seen[key] = { base, ops };
      const html = applyOps(base, patches[key]);
      const switched = sideBySide(slot._tlHtml || "") !== sideBySide(html);
      setPanel(slot, html, flash && !switched);
    }
  };
  // Base and patch change together: redraw once, after both are in.
  const queuePanels = () => { if (!queued) { queued = true; queueMicrotask(() => showPanels(true)); } };
  const showChanges = () => {
    const html = model.get("changes") || "";
    setPanel(changes, html, true);
    changesBox.classList.toggle("tl-changes-empty", !html || html.includes('data-empty="1"'));
  };
  const showBanner = () => {
    banner.innerHTML = model.get("banner");
    banner.classList.toggle("tl-banner-error", !!model.get("banner"));
    editor.setError(model.get("error_mark"));
  };
  const showNote = () => { note.innerHTML = model.get("note"); note.hidden = !model.get("note"); };
  const showStale = () => panels.classList.toggle("tl-stale", model.get("stale"));
  showPanels(false);
  model.on("change:panel_base", queuePanels);
  model.on("change:panel_patch", queuePanels);
  showChanges(); showBanner(); showNote(); showStale();
  model.on("change:source", () => editor.setText(model.get("source")));
  model.on("change:changes", showChanges);
  model.on("change:banner", showBanner);
  model.on("change:error_mark", showBanner);
  model.on("change:note", showNote);
  model.on("change:stale", showStale);
  model.on("change:read_only", () => editor.setReadOnly(model.get("read_only")));
  const release = keepInSight(bar, root);
  return () => { release(); trying.release(); editor.destroy(); };
}

function renderDiff({ model, el: host }) {
  const root = el("div", { class: "tl-root tl-diff-widget" });
  root.append(el("style", { text: model.get("css") }));
  const strict = el("input", { type: "checkbox", "data-trait": "strict" });
  strict.checked = model.get("strict");
  strict.addEventListener("change", () => { model.set("strict", strict.checked); model.save_changes(); });
  model.on("change:strict", () => { strict.checked = model.get("strict"); });
  const bar = el("div", { class: "tl-toolbar" }, labelled("strict", strict));
  // "schema" is no provider: the bare schemas, compared before any provider sees them.
  const payloads = { schema: "none (the schemas)" };
  if (model.get("providers").length > 1) {
    bar.append(labelled("provider payload", select(model, "provider", "providers", payloads)));
  }
  const banner = el("div", { class: "tl-banner" });
  const body = el("div", { class: "tl-diff-body" });
  root.append(bar, banner, body);
  host.append(root);
  const show = () => {
    banner.innerHTML = model.get("banner");
    body.classList.toggle("tl-stale", !!model.get("banner"));
    setPanel(body, model.get("html"), false);
  };
  show();
  model.on("change:html", show);
  model.on("change:banner", show);
}

function render(context) {
  const kind = context.model.get("view_kind");
  if (kind === "toolset") return renderToolset(context);
  return kind === "diff" ? renderDiff(context) : renderExplorer(context);
}

export default { render };
