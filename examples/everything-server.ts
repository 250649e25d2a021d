/**
 * The demo server of examples/everything.ts, as a function: a field-notes notebook with every
 * server feature (see that file). Each call makes a fresh notebook and server, so specs can serve
 * one per adapter (node handler, fetch handler, Express, Fastify, Hono) and on Bun and Deno.
 */
import { createMcpServer, type McpServer } from '../lib/mcp-server.js';
import type { RedisStore } from '../lib/redis/store.js';
import { embeddedResource, text } from '../lib/server-features/content.js';
import { ResourceNotFoundError } from '../lib/server-features/resources.js';
import { startTask } from '../lib/tasks/modern-tasks.js';

export interface EverythingDemo {
  mcp: McpServer;
  /** Counters the live log keeps (the station resource reports them). */
  stats: { toolCalls: number };
  /** Stop the station's update timer. */
  stop(): void;
}

const short = (v: string, max: number) => (v.length > max ? v.slice(0, max - 1) + '…' : v);
const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

function abortableSleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) return reject(signal.reason as Error);
    const timer = setTimeout(() => {
      signal.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal.reason as Error);
    };
    signal.addEventListener('abort', onAbort, { once: true });
  });
}

/** A fresh notebook and its server; with `store`, what several processes share lives on Redis. */
/**
 * The notes board (an MCP App view): speaks the Apps protocol over postMessage by hand, shows the
 * search it was opened for and its matches, and searches again through the host (tools/call).
 */
const NOTES_BOARD_HTML = `<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><title>Notes board</title>
<style>
  body { margin: 0; padding: 12px; font: 14px/1.4 system-ui, sans-serif; color: var(--color-text-primary, #1b1f24); background: var(--color-background-primary, #fff); }
  form { display: flex; gap: 6px; margin-bottom: 10px; } input { flex: 1; padding: 4px 6px; }
  .card { border: 1px solid #d0d7de; border-radius: 6px; padding: 6px 10px; margin: 6px 0; }
  .card b { display: block; } .muted { color: #6e7781; }
</style></head>
<body>
<form id="search"><input id="query" aria-label="search" placeholder="search notes"><button>Search</button></form>
<div id="status" class="muted">waiting for the tool call...</div>
<div id="cards"></div>
<script>
  var id = 0, pending = {};
  function request(method, params) {
    var mine = ++id;
    parent.postMessage({ jsonrpc: '2.0', id: mine, method: method, params: params }, '*');
    return new Promise(function (resolve, reject) { pending[mine] = { resolve: resolve, reject: reject }; });
  }
  function notify(method, params) { parent.postMessage({ jsonrpc: '2.0', method: method, params: params }, '*'); }
  function show(result) {
    var matches = (result.structuredContent && result.structuredContent.matches) || [];
    var cards = document.getElementById('cards');
    cards.textContent = '';
    matches.forEach(function (m) {
      var card = document.createElement('div'); card.className = 'card';
      var title = document.createElement('b'); title.textContent = m.title; card.appendChild(title);
      var meta = document.createElement('span'); meta.className = 'muted'; meta.textContent = m.id + (m.priority ? ' · ' + m.priority : ''); card.appendChild(meta);
      cards.appendChild(card);
    });
    document.getElementById('status').textContent = matches.length + (matches.length === 1 ? ' note' : ' notes');
    notify('ui/notifications/size-changed', { width: document.body.scrollWidth, height: document.body.scrollHeight });
  }
  window.addEventListener('message', function (e) {
    var m = e.data;
    if (!m || typeof m !== 'object') return;
    if (m.id !== undefined && pending[m.id]) { var p = pending[m.id]; delete pending[m.id]; if (m.error) p.reject(m.error); else p.resolve(m.result); return; }
    if (m.method === 'ui/notifications/tool-input') document.getElementById('query').value = (m.params.arguments && m.params.arguments.query) || '';
    if (m.method === 'ui/notifications/tool-result') show(m.params);
    if (m.method === 'ui/notifications/tool-cancelled') document.getElementById('status').textContent = 'cancelled: ' + m.params.reason;
    if (m.method === 'ui/resource-teardown') parent.postMessage({ jsonrpc: '2.0', id: m.id, result: {} }, '*');
  });
  document.getElementById('search').addEventListener('submit', function (e) {
    e.preventDefault();
    document.getElementById('status').textContent = 'searching...';
    request('tools/call', { name: 'search_notes', arguments: { query: document.getElementById('query').value } }).then(show, function (err) {
      document.getElementById('status').textContent = 'failed: ' + err.message;
    });
  });
  request('ui/initialize', { protocolVersion: '2026-01-26', appInfo: { name: 'notes-board', version: '1.0.0' }, appCapabilities: {} }).then(function () {
    notify('ui/notifications/initialized', {});
  });
</script></body></html>
`;

export function createEverythingServer(options: { store?: RedisStore | undefined } = {}): EverythingDemo {
  const store = options.store;
  const stats = { toolCalls: 0 };
  // ------------------------------------------------------------------------------------ the notebook

  interface Note {
    id: string;
    title: string;
    body: string;
    tags: string[];
    priority: 'low' | 'normal' | 'high';
    created: string;
  }

  /** A demo keeps its notebook in memory: bounded, whoever calls add_note. */
  const MAX_NOTES = 500;
  const notes = new Map<string, Note>();
  function addNote(n: Omit<Note, 'id' | 'created'> & { created?: string }): Note {
    const id = `n${notes.size + 1}`;
    const note: Note = { id, created: n.created ?? new Date().toISOString(), ...n };
    notes.set(id, note);
    return note;
  }
  addNote({
    title: 'Heron colony at the north marsh',
    body: 'Counted 14 grey heron nests in the alders, 3 with chicks visible. Water level 20 cm below last year. Return at dawn for a full count.',
    tags: ['birds', 'marsh'],
    priority: 'high',
    created: '2025-05-02T06:40:00Z',
  });
  addNote({
    title: 'Weather station battery',
    body: 'Station B battery at 11.9 V after three cloudy days. Solar panel needs cleaning; bring the spare regulator on Thursday.',
    tags: ['equipment'],
    priority: 'normal',
    created: '2025-05-03T14:10:00Z',
  });
  addNote({
    title: 'Orchids on the limestone slope',
    body: 'Early purple orchids flowering along the upper path, about 60 spikes. Two trampled near the stile; suggest a rope fence.',
    tags: ['plants', 'limestone'],
    priority: 'low',
    created: '2025-05-04T10:25:00Z',
  });

  const allTags = () => [...new Set([...notes.values()].flatMap((n) => n.tags))].sort();
  const noteUri = (id: string) => `notes://note/${id}`;

  // -------------------------------------------------------------------------------------- the server

  const mcp = createMcpServer({
    info: { name: 'mcp-actors-everything', version: '0.1.0', title: 'Field notebook (mcp-actors demo)' },
    instructions:
      'A field notebook. Search with search_notes, read notes://note/{id}, add notes with add_note (it asks the user for details), ' +
      'summarize with summarize_note (it asks your model), convert measurements with convert_units. Subscribe to station://status for live readings.',
    capabilities: {
      tools: { listChanged: true },
      resources: { subscribe: true, listChanged: true },
      prompts: { listChanged: true },
      logging: {},
      completions: {},
    },
    ...(store && { store }),
  });

  // ------------------------------------------------------------------------------------------- tools

  const UNITS: Record<string, { kind: string; toBase: (v: number) => number; fromBase: (v: number) => number }> = {
    celsius: { kind: 'temperature', toBase: (v) => v, fromBase: (v) => v },
    fahrenheit: { kind: 'temperature', toBase: (v) => ((v - 32) * 5) / 9, fromBase: (v) => (v * 9) / 5 + 32 },
    kelvin: { kind: 'temperature', toBase: (v) => v - 273.15, fromBase: (v) => v + 273.15 },
    metre: { kind: 'length', toBase: (v) => v, fromBase: (v) => v },
    foot: { kind: 'length', toBase: (v) => v * 0.3048, fromBase: (v) => v / 0.3048 },
    mile: { kind: 'length', toBase: (v) => v * 1609.344, fromBase: (v) => v / 1609.344 },
    kilometre: { kind: 'length', toBase: (v) => v * 1000, fromBase: (v) => v / 1000 },
  };

  mcp.registerTool(
    'convert_units',
    {
      title: 'Convert units',
      description: 'Converts a temperature or length between units (celsius, fahrenheit, kelvin, metre, foot, mile, kilometre).',
      inputSchema: {
        type: 'object',
        properties: {
          value: { type: 'number', description: 'The value to convert' },
          from: { type: 'string', enum: Object.keys(UNITS), description: 'Unit of the value' },
          to: { type: 'string', enum: Object.keys(UNITS), description: 'Unit to convert to' },
        },
        required: ['value', 'from', 'to'],
      },
      outputSchema: {
        type: 'object',
        properties: {
          value: { type: 'number' },
          unit: { type: 'string' },
          kind: { type: 'string', enum: ['temperature', 'length'] },
        },
        required: ['value', 'unit', 'kind'],
      },
      annotations: { readOnlyHint: true, idempotentHint: true, openWorldHint: false },
    },
    (args) => {
      const from = UNITS[String(args.from)];
      const to = UNITS[String(args.to)];
      if (from.kind !== to.kind) return { content: [text(`Cannot convert ${from.kind} to ${to.kind}.`)], isError: true };
      const value = Math.round(to.fromBase(from.toBase(Number(args.value))) * 1e6) / 1e6;
      return {
        content: [text(`${args.value} ${args.from} = ${value} ${args.to}`)],
        structuredContent: { value, unit: String(args.to), kind: from.kind },
      };
    },
  );

  mcp.registerTool(
    'search_notes',
    {
      title: 'Search notes',
      description: 'Finds notes whose title, body or tags contain every word of the query.',
      inputSchema: {
        type: 'object',
        properties: {
          query: { type: 'string', description: 'Words to look for' },
          tag: { type: 'string', description: 'Only notes with this tag' },
        },
        required: ['query'],
      },
      outputSchema: {
        type: 'object',
        properties: {
          matches: {
            type: 'array',
            items: {
              type: 'object',
              properties: { id: { type: 'string' }, title: { type: 'string' }, uri: { type: 'string' }, priority: { type: 'string' } },
              required: ['id', 'title', 'uri'],
            },
          },
        },
        required: ['matches'],
      },
      annotations: { readOnlyHint: true },
      // Hosts that render MCP Apps show the results on the notes board; others get the text.
      ui: { resourceUri: 'ui://notes/board' },
    },
    (args) => {
      const words = String(args.query).toLowerCase().split(/\s+/).filter(Boolean);
      const matches = [...notes.values()]
        .filter((n) => args.tag === undefined || n.tags.includes(String(args.tag)))
        .filter((n) => words.every((w) => `${n.title} ${n.body} ${n.tags.join(' ')}`.toLowerCase().includes(w)))
        .map((n) => ({ id: n.id, title: n.title, uri: noteUri(n.id), priority: n.priority }));
      return { structuredContent: { matches } };
    },
  );

  mcp.registerTool(
    'add_note',
    {
      title: 'Add a note',
      description: 'Adds a note to the notebook. Asks the user (elicitation) for a title, a priority and tags; without a client that can ask, uses defaults.',
      inputSchema: { type: 'object', properties: { body: { type: 'string', description: 'What was observed' } }, required: ['body'] },
    },
    async (args, ctx) => {
      if (notes.size >= MAX_NOTES) return { content: [text(`The notebook is full (${MAX_NOTES} notes).`)], isError: true };
      const body = String(args.body);
      let title = body.split(/[.!?]/)[0].slice(0, 60);
      let priority: Note['priority'] = 'normal';
      let tags: string[] = [];
      try {
        const answer = await ctx.elicit({
          message: `Filing a new note: "${short(body, 80)}". Give it a title, a priority and tags.`,
          requestedSchema: {
            type: 'object',
            properties: {
              title: { type: 'string', title: 'Title', default: title, maxLength: 80 },
              priority: {
                type: 'string',
                title: 'Priority',
                oneOf: [
                  { const: 'low', title: 'Low: whenever' },
                  { const: 'normal', title: 'Normal' },
                  { const: 'high', title: 'High: act this week' },
                ],
                default: 'normal',
              },
              // Multi-select fields arrived with 2025-11-25; older clients are not asked for tags.
              ...(ctx.revision >= '2025-11-25' && { tags: { type: 'array', title: 'Tags', items: { type: 'string', enum: allTags() } } }),
            },
            required: ['title'],
          },
        });
        if (answer.action !== 'accept') return { content: [text(`The user chose to ${answer.action}; no note was added.`)], isError: true };
        const c = answer.content ?? {};
        if (typeof c.title === 'string' && c.title.trim() !== '') title = c.title.trim();
        if (c.priority === 'low' || c.priority === 'normal' || c.priority === 'high') priority = c.priority;
        if (Array.isArray(c.tags)) tags = c.tags.map(String);
      } catch (e) {
        ctx.log.notice(`add_note: could not ask the user (${(e as Error).message}); using defaults`);
      }
      const note = addNote({ title, body, tags, priority });
      // A new note is a new template-listed resource, and the index changed.
      mcp.resources.notifyListChanged();
      mcp.resources.notifyUpdated('notes://index');
      ctx.log.info({ event: 'note added', id: note.id, title });
      return [text(`Added ${note.id}: "${note.title}" (${priority}${tags.length ? `; ${tags.join(', ')}` : ''}).`), embeddedResource(noteContents(note))];
    },
  );

  mcp.registerTool(
    'summarize_note',
    {
      title: 'Summarize a note',
      description: "Summarizes a note in one sentence with the client's model (sampling); falls back to the note's first sentence.",
      inputSchema: { type: 'object', properties: { id: { type: 'string', description: 'Note id, e.g. n1' } }, required: ['id'] },
      annotations: { readOnlyHint: true, openWorldHint: true },
    },
    async (args, ctx) => {
      const note = notes.get(String(args.id));
      if (!note) return { content: [text(`No note ${String(args.id)}; search_notes lists them.`)], isError: true };
      try {
        const result = await ctx.sample({
          systemPrompt: 'You summarize field notes for a nature reserve warden. One sentence, plain language.',
          messages: [{ role: 'user', content: { type: 'text', text: `${note.title}\n\n${note.body}` } }],
          maxTokens: 120,
          modelPreferences: { hints: [{ name: 'claude-haiku' }], speedPriority: 0.8, intelligencePriority: 0.3 },
        });
        const blocks = Array.isArray(result.content) ? result.content : [result.content];
        const summary = blocks.map((b) => (b.type === 'text' ? b.text : '')).join('').trim();
        return `${note.id} (${result.model}): ${summary}`;
      } catch (e) {
        ctx.log.notice(`summarize_note: sampling unavailable (${(e as Error).message}); using the first sentence`);
        return `${note.id}: ${note.body.split(/(?<=[.!?])\s/)[0]}`;
      }
    },
  );

  mcp.registerTool(
    'rebuild_index',
    {
      title: 'Rebuild the search index',
      description: 'Re-reads every note to rebuild the word index, reporting progress and logging as it goes (about 300 ms per note).',
      inputSchema: { type: 'object', properties: { delayMs: { type: 'integer', minimum: 0, maximum: 2000, description: 'Time per note (default 300)' } } },
    },
    async (args, ctx) => {
      const all = [...notes.values()];
      const delay = typeof args.delayMs === 'number' ? args.delayMs : 300;
      const words = new Map<string, number>();
      ctx.log.info(`Rebuilding the index over ${all.length} notes`);
      ctx.progress(0, all.length, 'Starting');
      for (const [i, note] of all.entries()) {
        if (ctx.signal.aborted) throw new Error('cancelled');
        await sleep(delay);
        for (const w of `${note.title} ${note.body}`.toLowerCase().match(/[a-z]{4,}/g) ?? []) words.set(w, (words.get(w) ?? 0) + 1);
        ctx.log.debug({ indexed: note.id, distinctWords: words.size });
        ctx.progress(i + 1, all.length, `Indexed ${note.id}`);
      }
      const top = [...words.entries()].sort((a, b) => b[1] - a[1]).slice(0, 5).map(([w, n]) => `${w} (${n})`);
      ctx.log.info('Index rebuilt');
      return `Indexed ${all.length} notes, ${words.size} distinct words. Most frequent: ${top.join(', ')}.`;
    },
  );

  mcp.registerTool(
    'survey_transect',
    {
      title: 'Survey a transect',
      description:
        'Walks a bird survey transect as a task: one stop every stopMs (default 1000), then, when confirm is true, asks the user (elicitation) who observed. ' +
        'A client polls it (tasks/get), may cancel it, and answers its question through the task.',
      inputSchema: {
        type: 'object',
        properties: {
          stops: { type: 'integer', minimum: 1, maximum: 50, description: 'Stops along the transect (default 5)' },
          stopMs: { type: 'integer', minimum: 0, maximum: 600000, description: 'Time per stop in ms (default 1000)' },
          confirm: { type: 'boolean', description: 'Ask the user who observed before recording the count' },
        },
      },
      execution: { taskSupport: 'optional' },
    },
    async (args, ctx) => {
      // On a 2026-07-28 request with the tasks extension the call becomes a task now; elsewhere this does nothing.
      await startTask(ctx);
      const stops = typeof args.stops === 'number' ? args.stops : 5;
      const stopMs = typeof args.stopMs === 'number' ? args.stopMs : 1000;
      let birds = 0;
      for (let stop = 1; stop <= stops; stop++) {
        await abortableSleep(stopMs, ctx.signal);
        birds += 3 + ((stop * 7) % 5);
        ctx.progress(stop, stops, `Stop ${stop}: ${birds} birds so far`);
      }
      let observer = 'unknown observer';
      if (args.confirm === true) {
        const answer = await ctx.elicit(
          { message: `Counted ${birds} birds at ${stops} stops. Who observed?`, requestedSchema: { type: 'object', properties: { observer: { type: 'string', title: 'Observer' } }, required: ['observer'] } },
          { inputKey: 'observer' },
        );
        if (answer.action !== 'accept') return { content: [text(`The count was not recorded (${answer.action}).`)], isError: true };
        observer = String(answer.content?.observer ?? observer);
      }
      // The pid says which process ran it (several processes serve one deployment with --redis).
      return `Transect surveyed by ${observer}: ${birds} birds at ${stops} stops (process ${process.pid}).`;
    },
  );

  // --------------------------------------------------------------------------------------- resources

  function noteContents(note: Note) {
    return {
      uri: noteUri(note.id),
      mimeType: 'text/markdown',
      text: `# ${note.title}\n\n${note.body}\n\n_${note.created.slice(0, 10)} · priority ${note.priority}${note.tags.length ? ' · ' + note.tags.map((t) => `#${t}`).join(' ') : ''}_\n`,
    };
  }

  mcp.registerResource(
    'notes-index',
    'notes://index',
    { title: 'Notebook index', description: 'Every note: id, title, tags and priority', mimeType: 'application/json' },
    (uri) => ({
      contents: [{ uri, mimeType: 'application/json', text: JSON.stringify([...notes.values()].map(({ body: _b, ...rest }) => rest), null, 2) }],
    }),
  );

  const started = Date.now();
  function stationReading() {
    const t = (Date.now() - started) / 1000;
    return {
      station: 'B',
      time: new Date().toISOString(),
      airTemperatureC: Math.round((12 + 3 * Math.sin(t / 60)) * 10) / 10,
      windKmh: Math.round((8 + 4 * Math.sin(t / 17)) * 10) / 10,
      batteryV: Math.round((12.4 - t / 36000) * 100) / 100,
      openSessions: mcp.sessions.size,
      toolCalls: stats.toolCalls,
    };
  }
  mcp.registerResource(
    'station-status',
    'station://status',
    { title: 'Weather station B', description: 'Live readings; updated every 5 seconds (subscribe to be told)', mimeType: 'application/json' },
    (uri) => ({ contents: [{ uri, mimeType: 'application/json', text: JSON.stringify(stationReading(), null, 2) }] }),
  );
  const updates = setInterval(() => mcp.resources.notifyUpdated('station://status'), 5000);
  (updates as { unref?: () => void }).unref?.();

  mcp.registerResourceTemplate(
    'note',
    'notes://note/{id}',
    {
      title: 'A note',
      description: 'One note as Markdown',
      mimeType: 'text/markdown',
      list: () => [...notes.values()].map((n) => ({ uri: noteUri(n.id), name: n.id, title: n.title, mimeType: 'text/markdown' })),
      complete: { id: (value) => [...notes.keys()].filter((id) => id.startsWith(value)) },
    },
    (uri, variables) => {
      const note = notes.get(String(variables.id));
      if (!note) throw new ResourceNotFoundError(uri); // -32002, with the URI in `data`
      return { contents: [noteContents(note)] };
    },
  );

  // ----------------------------------------------------------------------------------------- prompts

  mcp.registerPrompt(
    'review_note',
    {
      title: 'Review a note',
      description: 'Asks the model to review one note and suggest follow-up actions.',
      arguments: [{ name: 'id', description: 'Note id', required: true, complete: (value) => [...notes.keys()].filter((id) => id.startsWith(value)) }],
    },
    (args) => {
      const note = notes.get(String(args.id));
      if (!note) throw new Error(`No note ${String(args.id)}`);
      return {
        description: `Review of "${note.title}"`,
        messages: [
          { role: 'user', content: embeddedResource(noteContents(note)) },
          { role: 'user', content: text('Review this field note. What should the warden do next, and by when? Answer as a short checklist.') },
        ],
      };
    },
  );

  mcp.registerPrompt(
    'weekly_review',
    {
      title: 'Weekly review',
      description: 'Summarizes the week’s notes, optionally only those with one tag.',
      arguments: [{ name: 'tag', description: 'Only notes with this tag', complete: (value) => allTags().filter((t) => t.startsWith(value)) }],
    },
    (args) => {
      const picked = [...notes.values()].filter((n) => !args.tag || n.tags.includes(args.tag));
      const list = picked.map((n) => `- [${n.priority}] ${n.title}: ${n.body}`).join('\n');
      return `Here are this week's field notes${args.tag ? ` tagged #${args.tag}` : ''}:\n\n${list || '(none)'}\n\nWrite a short weekly report: highlights, problems, and actions ranked by priority.`;
    },
  );

  // An MCP App (io.modelcontextprotocol/ui): a board that shows a search's notes and searches
  // again from its own box, through the host (preview it: mcp-actors app search_notes query=otter <server>).
  mcp.registerAppResource('ui://notes/board', {
    name: 'notes-board',
    title: 'Notes board',
    description: 'The notes a search found, as cards; search again from the board.',
    prefersBorder: true,
    html: NOTES_BOARD_HTML,
  });

  // An agent skill (io.modelcontextprotocol/skills): how to keep the notebook, with a reference file.
  mcp.registerSkill({
    files: {
      'SKILL.md': [
        '---',
        'name: field-notes',
        'description: Keep the field notebook of this server tidy, searchable and reviewed each week',
        'license: MIT',
        '---',
        '',
        '# Field notes',
        '',
        'Add a note with `add_note` for each sighting; tag it (see `references/TAGS.md`).',
        'Search before adding, so a sighting is noted once. Review the week with the `weekly_review` prompt.',
        '',
      ].join('\n'),
      'references/TAGS.md': '# Tags\n\n- `birds`, `mammals`, `plants`: what was seen\n- `weather`: conditions worth noting\n',
    },
  });
  return { mcp, stats, stop: () => clearInterval(updates) };
}
