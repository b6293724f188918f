// Placing the panels' HTML (rendered by Python), flashing what changed, click-through.
import { SPAN_LABEL } from "./editor.js";

/** Units whose text tells what changed: JSON lines (and a big view's group of them: a
 * property added whole), table rows, list items. */
const UNITS = ".tl-line, .tl-group, tr, li";
/** Past this many changed units a view is marked as a whole. */
const MOST = 40;
/** Views longer than this (characters of HTML) try the one-unit fast path first. */
const FAST_PATH_SIZE = 50000;

/** Scroll `box` (a view's own scroll box) to show `el`: the page itself never jumps. */
function revealInBox(el, box) {
  const rel = el.getBoundingClientRect().top - box.getBoundingClientRect().top;
  if (rel < 0 || rel > box.clientHeight - el.offsetHeight) {
    box.scrollTop += rel - box.clientHeight / 3;
  }
}

/** The nearest box between `el` and `stop` that scrolls vertically (a view's own). */
function scrollBoxOf(el, stop) {
  for (let box = el.parentElement; box && box !== stop.parentElement; box = box.parentElement) {
    if (box.scrollHeight > box.clientHeight && /(auto|scroll)/.test(getComputedStyle(box).overflowY)) {
      return box;
    }
  }
  return null;
}

/**
 * A view's HTML from its synced base and the ops that turn the base into the HTML now:
 * `[start, end, text]` replaces `base.slice(start, end)` (UTF-16 offsets, sorted).
 */
export function applyOps(base, ops) {
  if (!ops || !ops.length) return base || "";
  const out = [];
  let at = 0;
  for (const [start, end, text] of ops) {
    out.push(base.slice(at, start), text);
    at = end;
  }
  out.push(base.slice(at));
  return out.join("");
}

/** Make `live`'s attributes those of `fresh`; `open` on <details> stays the reader's. */
function syncAttributes(live, fresh) {
  for (const { name } of [...live.attributes]) {
    if (!fresh.hasAttribute(name) && !(name === "open" && live.tagName === "DETAILS")) {
      live.removeAttribute(name);
    }
  }
  for (const { name, value } of fresh.attributes) {
    if (name === "open" && live.tagName === "DETAILS") continue;
    if (live.getAttribute(name) !== value) live.setAttribute(name, value);
  }
}

function morphNode(live, fresh, changed) {
  if (live.nodeType !== fresh.nodeType || live.nodeName !== fresh.nodeName) {
    live.replaceWith(fresh);
    changed.push(fresh);
    return;
  }
  if (live.nodeType === Node.TEXT_NODE) {
    if (live.data !== fresh.data) { live.data = fresh.data; changed.push(live.parentNode); }
    return;
  }
  if (live.nodeType !== Node.ELEMENT_NODE) { live.replaceWith(fresh); return; }
  syncAttributes(live, fresh);
  morphChildren(live, fresh, changed);
}

/**
 * Update `live`'s children in place to match `fresh`'s: equal children at both ends are
 * kept as they are (scroll positions, unfolded <details>, the nodes a reader looks at), the
 * middle is morphed pairwise or replaced. Pushes what it changed onto `changed`.
 */
function morphChildren(live, fresh, changed) {
  const a = [...live.childNodes];
  const b = [...fresh.childNodes];
  let head = 0;
  while (head < a.length && head < b.length && a[head].isEqualNode(b[head])) head++;
  let tail = 0;
  while (tail < a.length - head && tail < b.length - head
    && a[a.length - 1 - tail].isEqualNode(b[b.length - 1 - tail])) tail++;
  const oldMid = a.slice(head, a.length - tail);
  const newMid = b.slice(head, b.length - tail);
  if (oldMid.length === newMid.length) {
    for (let i = 0; i < oldMid.length; i++) morphNode(oldMid[i], newMid[i], changed);
    return;
  }
  const before = tail ? a[a.length - tail] : null;
  for (const node of oldMid) node.remove();
  for (const node of newMid) {
    live.insertBefore(node, before);
    changed.push(node);
  }
}

/** The innermost unit (JSON line, table row, list item) around `node`, if any. */
function unitOf(node) {
  const el = node && (node.nodeType === Node.ELEMENT_NODE ? node : node.parentElement);
  if (!el || !el.closest) return null;
  const inner = el.querySelector && !el.matches(UNITS) ? el.querySelector(UNITS) : null;
  return el.closest(UNITS) || inner;
}

/** Units the fast path can replace alone: [opening pattern, tag name, selector]. */
const PATCH_UNITS = [
  ['<span class="tl-line', "span", 'span[class^="tl-line"]'],
  ['<span class="tl-group', "span", "span.tl-group"],
  ["<tr>", "tr", "tr"],
  ["<li", "li", "li"],
];

function count(text, needle, end) {
  let n = 0;
  for (let at = text.indexOf(needle); at >= 0 && at < end; at = text.indexOf(needle, at + 1)) n++;
  return n;
}

/** Where the element opened at `start` (a `<name ...>`) closes in `html`: after its end tag. */
function closeOf(html, start, name) {
  const open = new RegExp(`<${name}[\\s>]|</${name}>`, "g");
  open.lastIndex = start;
  let depth = 0;
  for (let m = open.exec(html); m; m = open.exec(html)) {
    depth += m[0][1] === "/" ? -1 : 1;
    if (depth === 0) return m.index + m[0].length;
  }
  return -1;
}

/**
 * How many characters `a` and `b` share at their start (or end), at most `most`: halving
 * with native string compares, where a loop over each character of a 780 KB view took
 * milliseconds a keystroke.
 */
function shared(a, b, most, fromEnd) {
  const part = (s, from, to) => (fromEnd ? s.slice(s.length - to, s.length - from) : s.slice(from, to));
  let lo = 0; // the first `lo` characters (or last) are known equal
  let hi = most;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (part(a, lo, mid) === part(b, lo, mid)) lo = mid;
    else hi = mid - 1;
  }
  return lo;
}

/**
 * The fast path of a big view's update: when everything that differs between `old` and
 * `html` lies inside one JSON line, table row or list item, parse that unit alone and
 * morph its element (a keystroke in a 240-parameter tool changes a line, and parsing the
 * whole view would cost more than the rest of the update). Returns the touched nodes, or
 * null when the change is not inside one unit (the caller morphs the whole view).
 */
function patchOneUnit(panel, old, html) {
  const limit = Math.min(old.length, html.length);
  const head = shared(old, html, limit, false);
  const tail = shared(old, html, limit - head, true);
  for (const [opening, name, selector] of PATCH_UNITS) {
    const start = old.lastIndexOf(opening, head);
    if (start < 0) continue;
    const end = closeOf(old, start, name);
    if (end < 0 || end < old.length - tail) continue; // the change runs past this unit
    const fresh = html.slice(start, end + html.length - old.length);
    const target = panel.querySelectorAll(selector)[count(old, opening, start)];
    if (!target || !fresh.startsWith(opening) || closeOf(fresh, 0, name) !== fresh.length) continue;
    const holder = document.createElement(name === "tr" ? "tbody" : name === "li" ? "ul" : "div");
    holder.innerHTML = fresh;
    if (holder.childNodes.length !== 1) continue;
    const touched = [];
    morphNode(target, holder.firstChild, touched);
    return touched;
  }
  return null;
}

/**
 * Update a panel to `html` in place (only the nodes that differ are touched); with `flash`,
 * mark the units that changed and scroll each scroll box to its first one, in the next
 * animation frame: marking reads styles and positions, which makes the browser recompute
 * the style of a big view at once; done for all the views an edit changed together, in the
 * frame, it is computed once and the new text is not held back by it. Returns how many
 * nodes were touched.
 */
export function setPanel(panel, html, flash) {
  if (panel._tlHtml === html) return 0;
  const old = panel._tlHtml;
  panel._tlHtml = html;
  let touched = old && old.length > FAST_PATH_SIZE ? patchOneUnit(panel, old, html) : null;
  if (!touched) {
    touched = [];
    const template = document.createElement("template");
    template.innerHTML = html;
    morphChildren(panel, template.content, touched);
  }
  if (flash && touched.length) {
    toFlash.push([panel, touched]);
    if (toFlash.length === 1) requestAnimationFrame(flashAll);
  }
  return touched.length;
}

/** Panels patched since the last frame, with the nodes each patch touched. */
const toFlash = [];

function flashAll() {
  const batch = toFlash.splice(0);
  const reveal = [];
  for (const [panel, touched] of batch) {
    const fresh = new Set();
    for (const node of touched) {
      const unit = unitOf(node);
      if (unit && panel.contains(unit)) fresh.add(unit);
    }
    const changed = fresh.size;
    const units = changed > MOST ? panel.querySelectorAll(UNITS).length : 0;
    let flashed = [...fresh];
    if (changed > MOST && changed > units / 2) {
      // Nearly everything is new (strict toggled, another provider): mark the view, not a
      // wall of lines.
      flashed = [panel.querySelector(".tl-panel") || panel];
    } else {
      reveal.push([panel, fresh]);
    }
    for (const el of flashed) el.classList.add("tl-flash");
    // Unmark the nodes marked, not every match in a view of thousands of nodes.
    if (changed) setTimeout(() => { for (const el of flashed) el.classList.remove("tl-flash"); }, 1600);
  }
  for (const [panel, fresh] of reveal) {
    const boxes = new Set();
    for (const el of fresh) {
      const box = scrollBoxOf(el, panel);
      if (box && !boxes.has(box)) { boxes.add(box); revealInBox(el, box); }
    }
  }
}

/**
 * Clicking an element with data-span (or inside one) shows that span in the editor. The
 * attribute holds the span ("l1:c1-l2:c2") or, from the explorer's kernel, a key that the
 * kernel locates on request: a "span" message asks, and the answer is shown on arrival.
 */
export function wireClickThrough(root, editor, model) {
  let asked = null; // the element clicked last, while the kernel locates its span
  const show = (target, span) => {
    for (const el of root.querySelectorAll(".tl-span-active")) el.classList.remove("tl-span-active");
    if (editor.showSpan(span) && target) target.classList.add("tl-span-active");
  };
  root.addEventListener("click", (event) => {
    const target = event.target.closest ? event.target.closest("[data-span]") : null;
    if (!target || !root.contains(target) || !editor) return;
    const ref = target.getAttribute("data-span");
    if (SPAN_LABEL.test(ref) || !model) { asked = null; show(target, ref); return; }
    asked = target;
    model.send({ type: "span", key: ref });
  });
  if (!model) return;
  model.on("msg:custom", (msg) => {
    if (!msg || msg.type !== "span" || !asked || asked.getAttribute("data-span") !== msg.key) return;
    // The view may have been redrawn meanwhile: mark the element that now has the key.
    const target = root.contains(asked)
      ? asked : root.querySelector(`[data-span="${CSS.escape(msg.key)}"]`);
    asked = null;
    if (msg.span) show(target, msg.span);
  });
}

/**
 * Keep `bar` (the toolbar) in sight while `root` scrolls past the top of its scrolling
 * area. CSS `position: sticky` cannot do it inside notebook outputs: their output areas are
 * scroll containers of their own, so a sticky element sticks to them, not to the page.
 * Returns a function that stops it.
 */
export function keepInSight(bar, root) {
  let scrollers = [];
  const update = () => {
    const tops = scrollers.map((s) => (s === window ? 0 : s.getBoundingClientRect().top));
    const top = Math.max(0, ...tops);
    const box = root.getBoundingClientRect();
    const room = Math.max(0, box.height - bar.offsetHeight);
    const shift = Math.min(Math.max(0, top - box.top), room);
    bar.style.transform = shift ? `translateY(${shift}px)` : "";
    bar.classList.toggle("tl-floating", shift > 0);
  };
  let frames = 0;
  const attach = () => {
    if (!root.isConnected) {
      if (frames++ < 600) requestAnimationFrame(attach);
      return;
    }
    scrollers = [window];
    for (let el = root.parentElement || root.getRootNode().host; el; ) {
      const style = getComputedStyle(el);
      if (/(auto|scroll)/.test(style.overflowY)) scrollers.push(el);
      el = el.parentElement || (el.getRootNode() && el.getRootNode().host) || null;
    }
    for (const s of scrollers) s.addEventListener("scroll", update, { passive: true });
    window.addEventListener("resize", update);
    update();
  };
  attach();
  return () => {
    for (const s of scrollers) s.removeEventListener("scroll", update);
    window.removeEventListener("resize", update);
  };
}
