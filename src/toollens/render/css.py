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
  gap: 4px 0; align-items: baseline;
}
/* A margin, not the flex gap: it survives a sanitizer (render/inline.py). */
.tl-root .tl-panel-title .tl-muted { font-weight: normal; font-size: 0.9em; margin-left: 8px; }
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
/* Long types wrap between tokens; a word breaks only when it alone is wider than the cell
   ("anywhere" would also shrink the column until words break inside). */
/* word-break: normal beats a host's break-all on code (JupyterLab's rendered HTML). */
.tl-root .tl-panel-signature td code, .tl-root .tl-panel-signature td .tl-name {
  overflow-wrap: break-word; word-break: normal;
}
.tl-root .tl-meta th { white-space: normal; font-size: 0.92em; }
/* A source label may wrap in the Metadata table, inside a word too ("Field(...)"): five
   columns share a narrow view, and no column may push the table past it. */
.tl-root .tl-meta .tl-srcl { white-space: normal; overflow-wrap: anywhere; }
.tl-root .tl-meta th, .tl-root .tl-meta td { padding: 4px 3px; }
.tl-root .tl-meta .tl-won { font-weight: normal; }
.tl-root .tl-srcl {
  display: inline-block; font-size: 0.75em; line-height: 1.4; padding: 0 5px;
  border: 1px solid var(--tl-border); border-radius: 8px; color: var(--tl-muted);
  white-space: nowrap; vertical-align: baseline;
}
.tl-root details.tl-others { margin: 2px 0 0; font-size: 0.92em; }
.tl-root details.tl-others > summary { font-size: 0.9em; }
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
/* Line diffs: the +/- sign, the line, which wraps (long
   descriptions stay readable) with its indentation kept. */
/* The strict view shows a whole tool's schema without scrolling, up to about 60 lines. */
.tl-root .tl-ldiff { white-space: normal; max-height: 64em; }
.tl-root .tl-ldiff .tl-dl {
  display: grid; grid-template-columns: 1.1em minmax(0, 1fr) auto; min-width: 0;
}
.tl-root .tl-ldiff .tl-dc { white-space: pre-wrap; overflow-wrap: anywhere; }
/* Rule tags after the line, in a column as wide as the line's own tags: a line without
   one gives them no space. */
.tl-root .tl-gut {
  order: 3; display: flex; flex-flow: row wrap; gap: 1px 4px; justify-content: flex-end;
  max-width: 12em; padding: 0 0 0 6px;
}
.tl-root .tl-gut:empty { display: none; }
.tl-root .tl-gtag {
  font-size: 0.72em; line-height: 1.6; color: var(--tl-accent); cursor: help;
  overflow: hidden; text-overflow: ellipsis; white-space: nowrap;
}
.tl-root .tl-sign { color: var(--tl-muted); user-select: none; }
.tl-root .tl-dl.tl-add .tl-sign { color: #1a7f37; font-weight: 600; }
.tl-root .tl-dl.tl-del .tl-sign { color: #cf222e; font-weight: 600; }
.tl-root .tl-sbs-view { display: none; }
.tl-root.tl-sbs .tl-sbs-view { display: block; }
.tl-root.tl-sbs .tl-inline-view { display: none; }
.tl-root .tl-sbs-cols {
  display: grid; gap: 10px; grid-template-columns: repeat(auto-fit, minmax(min(100%, 340px), 1fr));
}
.tl-root .tl-sbs-col { min-width: 0; }
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

# The explorer widget's own rules: sticky toolbar, editor beside the change list, the grid
# the front end places the panels in, banners, the flash that marks what changed. Scoped
# under .tl-xp, the root element the widget's front end builds (see jupyter/frontend).
WIDGET_STYLE = """
/* clip, not hidden: "hidden" would make the explorer a scroll container, and the sticky
   toolbar would then stick to it instead of to the notebook's scrolling area. */
.tl-xp { width: 100%; max-width: 100%; overflow-x: clip; }
/* Kept in sight by the front end (a transform while the explorer scrolls past the top). */
/* The diff widget's toolbar is the explorer's, its two controls alike. */
.tl-xp .tl-toolbar, .tl-diff-widget .tl-toolbar {
  position: relative; z-index: 5; display: flex; flex-flow: row wrap;
  gap: 4px 10px; align-items: center; padding: 6px 8px; margin: 0 0 8px;
  background: var(--tl-bg); border-bottom: 1px solid var(--tl-border);
}
.tl-xp .tl-toolbar.tl-floating { box-shadow: 0 2px 6px rgba(0, 0, 0, 0.15); }
.tl-xp .tl-ctl, .tl-diff-widget .tl-ctl {
  display: inline-flex; gap: 5px; align-items: center; white-space: nowrap; color: var(--tl-muted);
}
.tl-xp .tl-toolbar select, .tl-xp .tl-toolbar input[type=text], .tl-xp .tl-apply,
.tl-xp .tl-try-buttons button, .tl-diff-widget .tl-toolbar select {
  font: inherit; color: var(--tl-fg); background: var(--tl-bg);
  border: 1px solid var(--tl-border); border-radius: 3px; padding: 2px 6px;
}
.tl-xp .tl-toolbar input[type=text] { flex: 0 1 12em; min-width: 7em; width: 12em; }
.tl-xp .tl-apply, .tl-xp .tl-try-buttons button { cursor: pointer; padding: 2px 14px; }
.tl-xp .tl-apply:disabled, .tl-xp .tl-try-buttons button:disabled { cursor: default; opacity: 0.5; }
/* The editor takes the whole width; the change list sits under it, one line while empty. */
.tl-xp .tl-top { display: flex; flex-flow: column; gap: 6px; margin: 0 0 12px; }
.tl-xp .tl-edit-col { min-width: 0; }
.tl-xp .tl-editor .cm-scroller { max-height: 40vh; }
.tl-xp .tl-since { float: right; margin-left: 10px; font-size: 0.92em; }
.tl-xp .tl-panel-changes { min-width: 0; max-height: 14em; overflow: auto; margin: 0; }
.tl-xp .tl-panel-changes.tl-changes-empty { padding: 2px 10px; max-height: none; }
.tl-xp .tl-changes-head { margin: 0 0 4px; }
.tl-xp .tl-last { margin: 4px 0 0; font-size: 0.92em; }
.tl-xp .tl-last ul.tl-edit { display: inline; padding: 0; }
.tl-xp .tl-last ul.tl-edit > li { display: inline; margin-right: 1em; }
.tl-xp .tl-trigger { color: var(--tl-accent); border-color: currentColor; }
/* The four views side by side: a 2x2 grid, each view scrolling on its own, so all four are
   on screen together; one column in a narrow notebook (marimo). */
.tl-xp { container-type: inline-size; }
.tl-xp .tl-panels { display: flex; flex-flow: column; gap: 12px; }
.tl-xp .tl-views { display: grid; gap: 10px; grid-template-columns: minmax(0, 1fr); }
@container (min-width: 600px) {
  .tl-xp .tl-views { grid-template-columns: repeat(2, minmax(0, 1fr)); }
}
/* Under 900px (marimo's default column) halves are too narrow for the Metadata table: the
   Metadata and Strict views get three fifths of the row, Signature and Output two. */
@container (min-width: 600px) and (max-width: 899px) {
  .tl-xp .tl-views { grid-template-columns: repeat(5, minmax(0, 1fr)); }
  .tl-xp .tl-views > .tl-slot { grid-column: span 2; }
  .tl-xp .tl-views > .tl-slot-metadata, .tl-xp .tl-views > .tl-slot-strict {
    grid-column: span 3;
  }
  .tl-xp .tl-views .tl-panel { padding: 8px 9px; }
  .tl-xp .tl-views .tl-table th, .tl-xp .tl-views .tl-table td { padding: 4px 4px; }
}
/* The toolbar stays one row in marimo's column too: the selects give up their spare width. */
@container (max-width: 799px) {
  .tl-xp .tl-toolbar { gap: 4px 8px; }
  .tl-xp .tl-toolbar select { max-width: 8.5em; }
}
.tl-xp .tl-slot { min-width: 0; }
/* contain: a keystroke that changes one view's line leaves the other views' boxes out of
   the next frame's paint work (the 240-parameter views are thousands of lines). */
.tl-xp .tl-views .tl-slot > .tl-panel {
  height: 100%; max-height: min(34em, 62vh); overflow: auto; margin: 0; box-sizing: border-box;
  padding-top: 0;  /* the sticky title carries it: nothing scrolls by above the title */
  contain: content;
}
.tl-xp .tl-views .tl-ldiff, .tl-xp .tl-views .tl-code { max-height: none; }
/* A view scrolled to its changed line keeps its heading in sight. */
.tl-xp .tl-views .tl-slot > .tl-panel > .tl-panel-title {
  position: sticky; top: 0; z-index: 2; background: var(--tl-panel); padding: 9px 0 4px;
}
/* Lines and list items off screen are not laid out until scrolled to (big tools). */
.tl-xp .tl-ldiff .tl-dl, .tl-xp ul.tl-findings > li {
  content-visibility: auto; contain-intrinsic-size: auto 1.5em;
}
/* A view's highlighted lines stack as flex items, not inline-blocks in one block of
   text: a changed line then lays out alone, not the whole block (the 240-parameter Strict
   view's ~4,000 lines), and every line is as wide as the widest, so a changed line's mark
   runs as far as the view scrolls. The newlines between lines are not rendered but still
   copied: each line is a block. */
.tl-xp .tl-views .tl-code:not(.tl-ldiff, .tl-sig) > code {
  display: flex; flex-direction: column; min-width: max-content;
}
/* A big view's property (render/highlight.py's groups) is laid out and painted only when
   near sight: a keystroke then lays out one group's lines, not the view's thousands. Out
   of sight a group is ten lines high until shown once (then as high as it was), and no
   wider than the view: a width kept from a wider window would scroll for nothing. */
.tl-xp .tl-views .tl-code:not(.tl-ldiff, .tl-sig) .tl-group {
  display: flex; flex-direction: column; content-visibility: auto;
  contain-intrinsic-width: 0; contain-intrinsic-height: auto 14em;
}
/* The toolbar's folded overrides. */
.tl-xp .tl-more { position: relative; color: var(--tl-muted); }
.tl-xp .tl-more > summary { cursor: pointer; white-space: nowrap; }
.tl-xp .tl-more-body {
  position: absolute; z-index: 6; left: 0; top: 1.8em; display: flex; gap: 6px; padding: 6px;
  align-items: center;
  background: var(--tl-bg); border: 1px solid var(--tl-border); border-radius: 4px;
  box-shadow: 0 2px 6px rgba(0, 0, 0, 0.15);
}
/* A tool that is only a schema (JSON, an MCP server's tool) has no Python signature, and no
   docstring or defaults to read: its Signature slot and those two choices are hidden. */
.tl-xp .tl-slot:has(> .tl-schema-only) { display: none; }
.tl-xp:has(.tl-schema-only) .tl-ctl:has(> select[data-trait="docstring_style"]),
.tl-xp:has(.tl-schema-only) .tl-ctl:has(> select[data-trait="optional_defaults"]) {
  display: none;
}
/* Last-good views fade while the source does not parse (the slots sit in .tl-views and
   .tl-below, not directly under .tl-panels). */
.tl-xp .tl-panels.tl-stale .tl-slot { opacity: 0.55; filter: grayscale(0.6); }
.tl-xp .tl-banner-body {
  margin: 6px 0 0; background: rgba(207, 34, 46, 0.1); color: var(--tl-fg);
  border-left: 4px solid var(--tl-error); padding: 6px 10px; border-radius: 3px;
}
.tl-xp .tl-note-body {
  margin: 0 0 8px; background: rgba(9, 105, 218, 0.08); color: var(--tl-fg);
  border-left: 4px solid var(--tl-info); padding: 4px 10px; border-radius: 3px;
}
.tl-xp .tl-flash { animation: tl-flash 1.6s ease-out; }
.tl-xp .tl-panel.tl-flash { animation: tl-flash-edge 1.6s ease-out; }
@keyframes tl-flash-edge {
  0%, 30% { box-shadow: 0 0 0 3px rgba(255, 196, 0, 0.8); }
  100% { box-shadow: 0 0 0 3px transparent; }
}
@keyframes tl-flash {
  0%, 30% { background-color: rgba(255, 196, 0, 0.55); }
  100% { background-color: transparent; }
}
.tl-xp [data-span] { cursor: pointer; }
.tl-xp [data-span]:hover { text-decoration: underline dotted var(--tl-accent); }
.tl-xp .tl-span-active { outline: 2px solid var(--tl-accent); outline-offset: -2px; }
.tl-xp .cm-editor { max-width: 100%; }
.tl-xp .cm-lintRange-error { text-decoration: underline wavy var(--tl-error); }
"""


def style_tag() -> Markup:
    """``<style>`` holding :data:`STYLE`; include once next to any toollens fragment."""
    return Markup(f"<style>{STYLE}</style>")
