"""The round trip's and the Try-it view's CSS, apart from their renderers: the explorer puts
both in its stylesheet when it opens, long before (if ever) the Try-it view is used, and
their renderers import the round-trip machinery (the SDK's validation, asyncio)."""

from __future__ import annotations

__all__ = ["ROUNDTRIP_STYLE", "TRY_STYLE"]

ROUNDTRIP_STYLE = """
.tl-root .tl-rt-steps { border-collapse: collapse; font-size: 0.92em; }
.tl-root .tl-rt-steps th { text-align: left; padding: 2px 12px 2px 0; vertical-align: top;
  white-space: nowrap; color: var(--tl-muted, inherit); font-weight: normal; }
.tl-root .tl-rt-steps td { padding: 2px 0; }
.tl-root .tl-rt-steps pre, .tl-root .tl-rt-finding pre { margin: 0; white-space: pre-wrap; }
.tl-root .tl-rt-finding {
  margin: 10px 0; padding-left: 8px; border-left: 3px solid var(--tl-error);
}
"""

TRY_STYLE = """
.tl-root .tl-try { margin: 8px 0; }
.tl-root .tl-try > summary { cursor: pointer; font-weight: 600; padding: 4px 0; }
.tl-root .tl-try-body { display: grid; grid-template-columns: minmax(0, 1fr) minmax(0, 1fr);
  gap: 10px; align-items: start; }
@container (max-width: 760px) { .tl-root .tl-try-body { grid-template-columns: minmax(0, 1fr); } }
.tl-root .tl-try-buttons { display: flex; flex-wrap: wrap; gap: 6px; margin-top: 6px; }
.tl-root .tl-try-status { font-size: 0.92em; min-width: 0; }
.tl-root .tl-try-status h4 { margin: 8px 0 4px; font-size: 1em; }
.tl-root .tl-try-marks { margin: 4px 0; padding-left: 18px; }
.tl-root .tl-try-marks code { word-break: break-all; }
.tl-root .tl-try-result.tl-stale { opacity: 0.55; }
.tl-root .tl-try-said { font-family: var(--jp-code-font-family, ui-monospace, monospace);
  white-space: pre-wrap; font-size: 0.9em; max-height: 12em; overflow: auto; margin: 4px 0; }
"""
