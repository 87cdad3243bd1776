"""The lesson sheet's CSS (ui.sheet writes it into the file): its screen layout, and its print rules, which keep every
page's sheet on at most 4 A4 pages (issue 42): a 9.5 pt text, tables and figures never split across pages, no heading
or lead line left at a page's foot, charts printed smaller, the code pointers left off paper."""

from __future__ import annotations

COLUMN_PX = 700  # the sheet's width: it fits A4 (210 mm) and Letter (8.5 in) inside 12 mm margins, so print = screen
PRINT_ZOOM = 0.8  # a full-width chart, printed: its 13 px text is 7.8 pt on paper

STYLE = f"""
:root {{ color-scheme: light; }}
body {{ font: 15px/1.5 "Noto Sans", "Noto Sans CJK SC", "Source Han Sans SC", sans-serif; color: #111;
  width: {COLUMN_PX}px; max-width: 100%; margin: 2em auto; padding: 0 1em; }}
h1 {{ font-size: 1.7em; margin: 0 0 .3em; }}
h2 {{ font-size: 1.3em; margin: 1.6em 0 .4em; border-bottom: 1px solid #ccc; }}
h3 {{ font-size: 1.1em; margin: 1.3em 0 .3em; }}
h2, h3, .table-title {{ break-after: avoid; page-break-after: avoid; }}
/* a line that introduces what follows (a bold label, a table's name) stays with it, a caption with its figure, and
   no figure, table, formula or list is split across printed pages */
p:has(+ :is(.table, figure, ul, ol, .formula, pre)) {{ break-after: avoid; page-break-after: avoid; }}
:is(figure, .table, .formula) + .caption {{ break-before: avoid; page-break-before: avoid; }}
.table, table, .formula, pre, .metric {{ break-inside: avoid; page-break-inside: avoid; }}
p, li {{ overflow-wrap: anywhere; }}
code, pre {{ font-family: "Noto Sans Mono", "DejaVu Sans Mono", monospace; font-size: .9em; }}
pre {{ white-space: pre-wrap; overflow-wrap: anywhere; background: #f4f4f4; padding: .5em; }}
.link {{ overflow-wrap: anywhere; word-break: break-all; }}
.caption, figcaption {{ color: #444; font-size: .9em; }}
.note {{ border-left: 4px solid #888; background: #f6f6f6; padding: .1em .8em; margin: .6em 0; }}
.note.info {{ border-color: #1c6fb8; background: #eef5fc; }}
.note.warning {{ border-color: #b58100; background: #fdf7e6; }}
.note.success {{ border-color: #1e7b34; background: #edf7ef; }}
.note.error {{ border-color: #b3261e; background: #fcedec; }}
.badge {{ border: 1px solid #999; border-radius: .4em; padding: 0 .3em; background: #f0f0f0; }}
.badge.red {{ border-color: #b3261e; }} .badge.blue {{ border-color: #1c6fb8; }}
.badge.violet {{ border-color: #6b3fa0; }} .badge.green {{ border-color: #1e7b34; }}
.color.red {{ color: #b3261e; }} .color.blue {{ color: #1c6fb8; }} .color.violet {{ color: #6b3fa0; }}
.color.green {{ color: #1e7b34; }} .color.orange {{ color: #a04f00; }} .color.gray {{ color: #555; }}
.metric {{ display: inline-block; margin: .3em 1.5em .3em 0; }}
.metric strong {{ font-size: 1.3em; }}
.formula {{ margin: .6em 0; overflow-wrap: anywhere; }}
math {{ font-size: 1.1em; }}
.table {{ margin: .6em 0; }}
table {{ border-collapse: collapse; max-width: 100%; font-size: .82em; margin: .3em 0; }}
th, td {{ border: 1px solid #bbb; padding: .15em .4em; text-align: left; vertical-align: top; }}
td {{ overflow-wrap: anywhere; }}
th {{ overflow-wrap: break-word; }}
th {{ background: #eee; }}
tr.highlight td {{ background: #ffd6d6; }}
tr {{ break-inside: avoid; page-break-inside: avoid; }}
figure.chart {{ margin: 1em 0; break-inside: avoid; page-break-inside: avoid; }}
figure.chart .drawing {{ max-width: 100%; }}
.halves {{ display: flex; flex-wrap: wrap; gap: 0 1em; align-items: flex-start; }}
.halves > .half {{ flex: 0 0 calc(50% - .5em); min-width: 0; break-inside: avoid; page-break-inside: avoid; }}
.half figure.chart {{ margin: .4em 0; }}
section.answers {{ break-before: page; page-break-before: always; }}
.exercises li {{ margin: .4em 0; }}
@page {{ margin: 12mm; }}
@media print {{
  body {{ margin: 0 auto; padding: 0; font-size: 9.5pt; line-height: 1.35; }}
  .note, th, tr.highlight td, .badge {{ print-color-adjust: exact; -webkit-print-color-adjust: exact; }}
  .modebar-container {{ display: none !important; }}
  .source {{ display: none; }}
  p, ul, ol {{ margin: .35em 0; }} h2 {{ margin: 1em 0 .3em; }} h3 {{ margin: .8em 0 .2em; }}
  figure.chart, .table, .formula {{ margin: .4em 0; }}
  header h2 {{ display: inline; font-size: 1em; border: 0; margin: 0; }}
  header ul {{ display: inline; padding: 0; }}
  header li {{ display: inline; }} header li + li::before {{ content: " · "; }}
  figure.chart {{ zoom: var(--print-zoom, {PRINT_ZOOM}); }}
}}
"""
