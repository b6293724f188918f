// Placing the panels' HTML (rendered by Python), flashing what changed, click-through.
import { SPAN_LABEL } from "./editor.js";

/** Units whose text tells what changed: JSON lines, table rows, list items. */
const UNITS = ".tl-line, tr, li";
/** Past this many changed units a view is marked as a whole. */
const MOST = 40;

function texts(root) {
  const counts = new Map();
  for (const el of root.querySelectorAll(UNITS)) {
    const key = el.textContent;
    counts.set(key, (counts.get(key) || 0) + 1);
  }
  return counts;
}

/** Scroll `box` (a view's own scroll box) to show `el`: the page itself never jumps. */
function revealInBox(el, box) {
  const rel = el.getBoundingClientRect().top - box.getBoundingClientRect().top;
  if (rel < 0 || rel > box.clientHeight - el.offsetHeight) {
    box.scrollTop += rel - box.clientHeight / 3;
  }
}

/**
 * Replace a panel's HTML; with `flash`, mark the units whose text is new and scroll each
 * scroll box to its first one. Returns how many units changed.
 */
export function setPanel(panel, html, flash) {
  if (panel._tlHtml === html) return 0;
  const before = flash ? texts(panel) : null;
  const open = new Set([...panel.querySelectorAll("details[open]")].map(detailsKey));
  panel._tlHtml = html;
  panel.innerHTML = html;
  // Keep what the author unfolded unfolded across re-renders.
  for (const d of panel.querySelectorAll("details")) if (open.has(detailsKey(d))) d.open = true;
  if (!before) return 0;
  const fresh = [];
  const units = panel.querySelectorAll(UNITS);
  for (const el of units) {
    const key = el.textContent;
    const left = before.get(key) || 0;
    if (left > 0) { before.set(key, left - 1); continue; }
    if (!el.querySelector(UNITS)) fresh.push(el); // the innermost unit carries the mark
  }
  const changed = fresh.length;
  if (changed > MOST || changed > units.length / 2) {
    // Nearly everything is new (strict toggled, another provider): mark the view, not a
    // wall of lines.
    const view = panel.querySelector(".tl-panel") || panel;
    view.classList.add("tl-flash");
  } else {
    const boxes = new Set();
    for (const el of fresh) {
      el.classList.add("tl-flash");
      const box = el.closest(".tl-code, .tl-scroll");
      if (box && !boxes.has(box)) { boxes.add(box); revealInBox(el, box); }
    }
  }
  if (changed) setTimeout(() => {
    for (const el of panel.querySelectorAll(".tl-flash")) el.classList.remove("tl-flash");
  }, 1600);
  return changed;
}

function detailsKey(d) {
  const s = d.querySelector("summary");
  return s ? s.textContent : "";
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
