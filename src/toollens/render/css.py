"""The stylesheet every toollens HTML view uses, and the explorer widget's few extra rules.

Every selector sits under ``.tl-root`` so nothing leaks into the notebook. Colours come from
JupyterLab's theme variables (then VS Code's), with light fallbacks for static viewers, and
highlights are translucent so they read on light and dark backgrounds alike.
"""

from __future__ import annotations

from toollens.render.markup import Markup

__all__ = ["STYLE", "WIDGET_STYLE", "style_tag"]

_MONO = "var(--jp-code-font-family, ui-monospace, SFMono-Regular, Menlo, Consolas, monospace)"

STYLE = """
.tl-root {
  --tl-fg: var(--jp-content-font-color1, var(--vscode-editor-foreground, #1f2328));
  --tl-muted: var(--jp-content-font-color2, var(--vscode-descriptionForeground, #59636e));
  --tl-faint: var(--jp-content-font-color3, #8c959f);
  --tl-bg: var(--jp-layout-color0, var(--vscode-editor-background, #ffffff));
  --tl-panel: var(--jp-layout-color1, var(--vscode-editor-background, #ffffff));
  --tl-code-bg: var(--jp-cell-editor-background, rgba(127, 127, 127, 0.08));
  --tl-border: var(--jp-border-color2, rgba(127, 127, 127, 0.35));
  --tl-accent: var(--jp-brand-color1, #0969da);
  --tl-won: var(--jp-success-color1, #1a7f37);
  --tl-error: var(--jp-error-color1, #cf222e);
  --tl-warn: var(--jp-warn-color1, #9a6700);
  --tl-info: var(--jp-info-color1, #0969da);
  --tl-changed: rgba(212, 167, 44, 0.22);
  --tl-changed-edge: #d4a72c;
  --tl-add: rgba(46, 160, 67, 0.18);
  --tl-del: rgba(248, 81, 73, 0.18);
  font-family: var(--jp-ui-font-family, system-ui, -apple-system, "Segoe UI", Roboto, sans-serif);
  font-size: var(--jp-ui-font-size1, 13px);
  line-height: 1.45;
  color: var(--tl-fg);
  max-width: 100%;
  box-sizing: border-box;
}
.tl-root *, .tl-root *::before, .tl-root *::after { box-sizing: border-box; }
.tl-root code, .tl-root pre { font-family: MONO; font-size: var(--jp-code-font-size, 12px); }
.tl-root .tl-header { margin: 0 0 10px; }
.tl-root .tl-title { font-size: 1.35em; font-weight: 600; margin-right: 8px; }
.tl-root .tl-desc { margin: 4px 0 0; color: var(--tl-muted); white-space: pre-wrap; }
.tl-root .tl-badge {
  display: inline-block; padding: 0 7px; margin: 0 4px 2px 0; border-radius: 10px;
  border: 1px solid var(--tl-border); font-size: 0.85em; line-height: 1.6;
  white-space: nowrap; vertical-align: middle; color: var(--tl-muted);
}
.tl-root .tl-badge.tl-on { color: var(--tl-won); border-color: currentColor; }
/* At most three columns (a track is never under a third of the row), at least 300px each,
   one column when narrower than that. */
.tl-root .tl-grid {
  display: grid; gap: 12px; align-items: start; width: 100%;
  grid-template-columns: repeat(
    auto-fit, minmax(min(100%, max(300px, calc((100% - 24px) / 3))), 1fr));
}
.tl-root .tl-full { grid-column: 1 / -1; }
.tl-root .tl-panel {
  min-width: 0; border: 1px solid var(--tl-border); border-radius: 6px;
  background: var(--tl-panel); padding: 10px 12px;
}
.tl-root .tl-wide { margin-top: 12px; }
.tl-root .tl-panel-title {
  margin: 0 0 8px; font-size: 1.08em; font-weight: 600; display: flex; flex-wrap: wrap;
  gap: 4px 8px; align-items: baseline;
}
.tl-root .tl-panel-title .tl-muted { font-weight: normal; font-size: 0.9em; }
.tl-root .tl-muted { color: var(--tl-muted); }
.tl-root .tl-note { margin: 6px 0; color: var(--tl-muted); }
.tl-root p { margin: 6px 0; }
.tl-root a { color: var(--tl-accent); }
.tl-root .tl-code {
  margin: 6px 0; padding: 8px 10px; background: var(--tl-code-bg); border-radius: 4px;
  overflow: auto; max-height: 32em; line-height: 1.4; white-space: pre; color: var(--tl-fg);
  overflow-wrap: normal; word-break: normal; max-width: 100%;
}
.tl-root .tl-code code { font-size: inherit; background: none; padding: 0; }
.tl-root .tl-sig { white-space: pre-wrap; word-break: break-word; }
.tl-root .tl-line { display: inline-block; min-width: 100%; }
.tl-root .tl-changed {
  background: var(--tl-changed); box-shadow: inset 3px 0 0 var(--tl-changed-edge);
}
.tl-root .tl-add { background: var(--tl-add); box-shadow: inset 3px 0 0 #2ea043; }
.tl-root .tl-del { background: var(--tl-del); box-shadow: inset 3px 0 0 #f85149; }
.tl-root .tl-scroll { overflow-x: auto; max-width: 100%; }
.tl-root table.tl-table { border-collapse: collapse; width: 100%; }
.tl-root .tl-table th, .tl-root .tl-table td {
  padding: 4px 6px; border-bottom: 1px solid var(--tl-border); text-align: left;
  vertical-align: top; background: none; color: inherit;
}
.tl-root .tl-table th { font-weight: 600; color: var(--tl-muted); white-space: nowrap; }
.tl-root .tl-table td.tl-name { font-weight: 600; white-space: nowrap; }
/* Long types may break inside a word, but only when the narrow column needs it. */
.tl-root .tl-panel-signature td code, .tl-root .tl-panel-signature td .tl-name {
  overflow-wrap: anywhere;
}
.tl-root .tl-meta th { white-space: normal; }
.tl-root .tl-meta td.tl-src { min-width: 6em; }
.tl-root .tl-meta td.tl-src-won { min-width: 11em; }
.tl-root .tl-meta td.tl-empty { color: var(--tl-faint); }
.tl-root .tl-badge.tl-kind { font-family: MONO; font-size: 0.8em; padding: 0 5px; }
.tl-root .tl-cand { margin: 0 0 3px; }
.tl-root .tl-attr {
  color: var(--tl-muted); font-size: 0.85em; margin-right: 4px; font-weight: normal;
}
.tl-root .tl-won { font-weight: 600; color: var(--tl-fg); }
.tl-root .tl-won .tl-mark { color: var(--tl-won); }
.tl-root .tl-lost { color: var(--tl-faint); }
.tl-root .tl-lost s { text-decoration: line-through; }
.tl-root .tl-context { color: var(--tl-muted); font-style: italic; }
.tl-root .tl-context-badge {
  color: var(--tl-accent); border-color: currentColor; font-style: normal; white-space: normal;
}
.tl-root details { margin: 6px 0; }
.tl-root summary { cursor: pointer; color: var(--tl-muted); }
.tl-root ul.tl-why, .tl-root ol.tl-changes, .tl-root ul.tl-findings, .tl-root ul.tl-edit {
  margin: 4px 0; padding-left: 1.3em;
}
.tl-root .tl-why li, .tl-root .tl-changes li, .tl-root .tl-findings li { margin: 2px 0; }
.tl-root .tl-rule { color: var(--tl-muted); }
.tl-root .tl-fix { color: var(--tl-muted); }
.tl-root .tl-error-box {
  margin: 6px 0; padding: 6px 10px; border-left: 3px solid var(--tl-error);
  background: rgba(207, 34, 46, 0.08); white-space: pre-wrap; word-break: break-word;
}
.tl-root .tl-sev-error { color: var(--tl-error); border-color: currentColor; }
.tl-root .tl-sev-warning { color: var(--tl-warn); border-color: currentColor; }
.tl-root .tl-sev-info { color: var(--tl-info); border-color: currentColor; }
.tl-root .tl-sev-breaking { color: var(--tl-error); border-color: currentColor; }
.tl-root .tl-sev-compatible { color: var(--tl-won); border-color: currentColor; }
.tl-root .tl-sev-description-only { color: var(--tl-muted); border-color: currentColor; }
.tl-root h4 { margin: 10px 0 4px; font-size: 1em; font-weight: 600; }
.tl-root .tl-diff {
  display: grid; gap: 12px; grid-template-columns: repeat(auto-fit, minmax(min(100%, 340px), 1fr));
}
.tl-root .tl-tok-nt { color: var(--jp-mirror-editor-property-color, #0550ae); }
.tl-root .tl-tok-s2, .tl-root .tl-tok-s { color: var(--jp-mirror-editor-string-color, #a31515); }
.tl-root .tl-tok-mi, .tl-root .tl-tok-mf, .tl-root .tl-tok-m {
  color: var(--jp-mirror-editor-number-color, #098658);
}
.tl-root .tl-tok-kc { color: var(--jp-mirror-editor-keyword-color, #8250df); font-weight: 600; }
.tl-root .tl-tok-p { color: var(--jp-mirror-editor-punctuation-color, var(--tl-muted)); }
.tl-root .tl-tok-err { color: var(--tl-error); }
""".replace("MONO", _MONO)

# The explorer widget's own rules (toolbar, editor, banners, grid of panel widgets), added
# after STYLE inside the widget; ipywidgets' classes (.widget-text, ...) are what it renders.
WIDGET_STYLE = """
.tl-explorer { width: 100%; box-sizing: border-box; }
.tl-explorer .tl-toolbar {
  display: flex; flex-flow: row wrap; gap: 4px 10px; align-items: center; width: 100%;
}
.tl-explorer .tl-toolbar > .widget-inline-hbox { margin: 0; }
.tl-explorer .tl-toolbar > .widget-checkbox { flex: 0 0 auto; width: auto; }
.tl-explorer .tl-toolbar > .widget-dropdown { flex: 0 1 auto; width: auto; }
.tl-explorer .tl-toolbar > .widget-dropdown select { min-width: 6.5em; }
.tl-explorer .tl-toolbar > .widget-text {
  flex: 1 1 120px; min-width: 100px; max-width: 240px; width: auto;
}
.tl-explorer .tl-toolbar > .widget-button { flex: 0 0 auto; width: auto; padding: 0 14px; }
/* The editor's Layout is width 100%: side margins would make the explorer scroll sideways. */
.tl-explorer > .tl-editor { margin-left: 0; margin-right: 0; }
.tl-explorer .tl-editor textarea {
  font-family: MONO;
  font-size: var(--jp-code-font-size, 13px); line-height: 1.4; tab-size: 4;
  white-space: pre; overflow-wrap: normal; overflow-x: auto;
}
.tl-explorer .tl-editor-error textarea { border: 1px solid #c62828; }
.tl-explorer .tl-banner-error .widget-html-content,
.tl-explorer .tl-explorer-note .widget-html-content {
  white-space: normal; line-height: 1.4;
}
.tl-explorer .tl-banner-error .tl-banner-body {
  background: #fdecea; color: #611a15; border-left: 4px solid #c62828;
  padding: 6px 10px; border-radius: 3px; font-size: 13px;
}
.tl-explorer .tl-explorer-note .tl-note-body {
  background: #eef4fb; color: #1a3550; border-left: 4px solid #4a7ab5;
  padding: 4px 10px; border-radius: 3px; font-size: 13px;
}
.tl-explorer .tl-panels > .widget-html { min-width: 0; margin: 0; }
.tl-explorer .tl-panels .widget-html-content,
.tl-explorer .tl-panel-findings .widget-html-content,
.tl-explorer .tl-panel-changes .widget-html-content {
  min-width: 0; max-width: 100%; overflow-x: auto; white-space: normal; line-height: normal;
}
.tl-explorer .tl-panels.tl-stale > .widget-html { opacity: 0.55; filter: grayscale(0.6); }
.tl-explorer .tl-panels.tl-stale > .widget-html::after {
  content: "stale"; position: absolute; top: 8px; right: 10px; padding: 0 6px;
  border: 1px solid #c62828; border-radius: 8px; color: #c62828; font-size: 11px;
  background: var(--jp-layout-color0, #fff);
}
""".replace("MONO", _MONO)


def style_tag() -> Markup:
    """``<style>`` holding :data:`STYLE`; include once next to any toollens fragment."""
    return Markup(f"<style>{STYLE}</style>")
