/** The viewer's stylesheet. */
export const VIEWER_CSS = `
:root { --bg:#0f1419; --panel:#171d24; --line:#2a333d; --text:#d6dde4; --dim:#7d8a96; --client:#5ccfe6; --server:#ffcc66; --err:#ff6b6b; --active:#c792ea; --ok:#87d96c; }
* { box-sizing: border-box; }
body { margin:0; font:13px/1.4 ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; background:var(--bg); color:var(--text); }
header { display:flex; gap:16px; align-items:baseline; padding:8px 14px; border-bottom:1px solid var(--line); }
h1 { font-size:15px; margin:0; } h2 { font-size:12px; text-transform:uppercase; letter-spacing:.06em; color:var(--dim); margin:10px 0 6px; }
#meta { color:var(--dim); }
#controls { display:flex; gap:8px; align-items:center; padding:8px 14px; border-bottom:1px solid var(--line); }
#scrubber { flex:1; accent-color: var(--active); }
button { background:var(--panel); color:var(--text); border:1px solid var(--line); border-radius:4px; padding:2px 10px; cursor:pointer; }
#position { min-width: 220px; color:var(--dim); }
main { display:grid; grid-template-columns: minmax(420px, 1fr) minmax(420px, 1fr); gap:0; height: calc(100vh - 86px); }
#timeline-pane, #detail-pane { padding: 0 14px; overflow:hidden; display:flex; flex-direction:column; }
#detail-pane { border-left:1px solid var(--line); overflow:auto; }
#detail-pane > * { flex:none; } /* the pane scrolls; its parts keep their height (a shrunk frame was one line tall) */
[hidden] { display:none !important; }
#timeline { position:relative; flex:1; overflow-y:auto; outline:none; }
#spacer { width:1px; }
#rows { position:absolute; top:0; left:0; right:0; }
.row { position:absolute; left:0; right:0; height:22px; display:flex; gap:8px; align-items:center; white-space:nowrap; overflow:hidden; cursor:pointer; padding:0 4px; border-radius:3px; }
.row:hover { background:#1d252e; }
.row.selected { background:#2b2140; outline:1px solid var(--active); }
.row .seq { color:var(--dim); width:52px; text-align:right; }
.row .t { color:var(--dim); width:78px; text-align:right; }
.row .dir { width:128px; flex:none; }
.row .seq, .row .t { flex:none; }
.row .dir.c { color:var(--client); } .row .dir.s { color:var(--server); } .row .dir.o { color:var(--dim); }
.row .ms { color:var(--dim); } .row .err { color:var(--err); }
.row.loading .label, #frame.loading, #states .loading { color:var(--dim); font-style:italic; }
.row.error .label { color:var(--err); }
#states { background:var(--panel); border:1px solid var(--line); border-radius:6px; padding:8px 10px; }
#states .state { color:var(--active); font-weight:bold; }
#states ul { margin:4px 0 0; padding-left:18px; }
#charts { display:grid; grid-template-columns:1fr; gap:8px; margin-top:8px; }
figure { margin:0; background:var(--panel); border:1px solid var(--line); border-radius:6px; padding:6px; }
figcaption { color:var(--dim); font-size:11px; }
svg { width:100%; height:auto; display:block; margin:0 auto; }
svg .node rect { fill:#1b222b; stroke:#3a4652; rx:8; }
svg .node.compound > rect { fill:none; stroke-dasharray:4 3; }
svg .node.final > rect { stroke-width:3; stroke-dasharray:none; }
svg .node text { fill:var(--text); font-size:12px; }
svg .node.active > rect { fill:#3b2a57; stroke:var(--active); stroke-width:2.5; }
svg .node.active > text { fill:#fff; font-weight:bold; }
svg .node.compound.active > rect { fill:rgba(199,146,234,.07); }
svg .lines path { stroke:#56636f; fill:none; marker-end:url(#arrow); }
svg .edge text, svg .root-note { fill:var(--dim); font-size:10px; }
svg .edge text { paint-order:stroke; stroke:var(--panel); stroke-width:4px; stroke-linejoin:round; }
svg .initial { fill:var(--text); }
svg .lines path.initial-arrow { stroke:var(--text); }
.root-edges { color:var(--dim); font-size:11px; margin:4px 0 0; }
pre#frame { background:var(--panel); border:1px solid var(--line); border-radius:6px; padding:8px 10px; margin:0 0 4px; min-height:5.5em; white-space:pre-wrap; word-break:break-word; max-height:40vh; overflow:auto; }
`;
