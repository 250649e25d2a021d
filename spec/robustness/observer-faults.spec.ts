// An exception thrown by a user's observer of any public observable must neither end the
// process nor disturb the session: it is isolated and reported (an `observer-error` diagnostic
// for a session's own streams, and one process warning per faulty subscription).
import { expect } from 'chai';
import { config, filter, firstValueFrom, map, type Observable } from 'rxjs';
import type { Client } from '../../lib/entries/client.js';
import { createHost, type Host } from '../../lib/entries/host.js';
import { listen, type Listening } from '../../lib/http/listen-port.js';
import type { McpServer } from '../../lib/mcp-server.js';
import type { Diagnostic } from '../../lib/session/session.js';
import type { ServerSession } from '../../lib/server.js';
import { OBSERVER_FAULT_WARNING } from '../../streams/guarded.js';
import { createMemoryPair } from '../../streams/memory.js';
import { createStreamableHttpHandler } from '../../lib/server-bindings/streamable-http-server.js';
import { connect, makeServer } from '../server-features/helpers.js';

const bug = (): never => {
  throw new Error('observer bug');
};

/** Lets RxJS's deferred rethrow (a 0 ms timer) and Node's warning (next tick) happen. */
const afterTimers = () => new Promise((resolve) => setTimeout(resolve, 2));

interface World {
  mcp: McpServer;
  client: Client;
  session: ServerSession;
}

interface Case {
  name: string;
  observable: (w: World) => Observable<unknown>;
  /** Makes the observable emit (nothing when it emits on subscribe). */
  trigger?: (w: World) => Promise<unknown>;
  /** Whether the fault shows on the client's or the server session's diagnostics$. */
  diagnosedOn?: 'client' | 'server';
}

const CASES: Case[] = [
  { name: 'client frames$', observable: (w) => w.client.frames$, trigger: (w) => w.client.ping(), diagnosedOn: 'client' },
  { name: 'server session frames$', observable: (w) => w.session.frames$, trigger: (w) => w.client.ping(), diagnosedOn: 'server' },
  { name: 'client state$', observable: (w) => w.client.state$, diagnosedOn: 'client' },
  { name: 'client journal$', observable: (w) => w.client.journal$, trigger: (w) => w.client.ping(), diagnosedOn: 'client' },
  { name: 'client transportState$', observable: (w) => w.client.transportState$, diagnosedOn: 'client' },
  {
    name: 'server session diagnostics$',
    observable: (w) => w.session.diagnostics$,
    trigger: async (w) => {
      w.client.notify('notifications/progress', { progressToken: 'nobody', progress: 1 });
      await w.client.ping();
    },
  },
  {
    name: 'client progress$',
    observable: (w) => w.client.progress$,
    trigger: (w) => w.client.request('tools/call', { name: 'work', arguments: {} }, { onprogress: () => {} }),
    diagnosedOn: 'client',
  },
  { name: 'client tools$ (live list)', observable: (w) => w.client.tools$, trigger: (w) => w.client.listTools(), diagnosedOn: 'client' },
  { name: 'client resources$ (live list)', observable: (w) => w.client.resources$, trigger: (w) => w.client.listResources(), diagnosedOn: 'client' },
  { name: 'client prompts$ (live list)', observable: (w) => w.client.prompts$, trigger: (w) => w.client.listPrompts(), diagnosedOn: 'client' },
  { name: 'client toolCalls$', observable: (w) => w.client.toolCalls$, trigger: (w) => w.client.callTool('work', {}), diagnosedOn: 'client' },
  {
    name: 'client logs$',
    observable: (w) => w.client.logs$,
    trigger: async (w) => {
      await w.client.setLoggingLevel('debug');
      w.mcp.log('info', 'hello');
      await w.client.ping();
    },
    diagnosedOn: 'client',
  },
  { name: 'McpServer tools$', observable: (w) => w.mcp.tools$ },
  { name: 'McpServer prompts$', observable: (w) => w.mcp.prompts$ },
  { name: 'McpServer resources$', observable: (w) => w.mcp.resources$ },
  { name: 'McpServer logLevels$', observable: (w) => w.mcp.logLevels$, trigger: (w) => w.client.setLoggingLevel('warning') },
  {
    name: 'McpServer sessions$',
    observable: (w) => w.mcp.sessions$,
    trigger: async (w) => {
      const [a] = createMemoryPair();
      await w.mcp.connect(a);
    },
  },
  { name: 'transport state$', observable: (w) => (w.client as unknown as { transport: { state$: Observable<unknown> } }).transport.state$ },
];

describe('robustness: observers that throw are isolated', function () {
  let unhandled: unknown[] = [];
  let warnings: { message: string }[] = [];
  let previous: typeof config.onUnhandledError;
  const emitWarning = process.emitWarning;

  // Only to see whether RxJS would have rethrown (an uncaught exception, the end of a real
  // process); the library itself never touches the global RxJS configuration.
  beforeEach(() => {
    unhandled = [];
    warnings = [];
    previous = config.onUnhandledError;
    config.onUnhandledError = (e) => unhandled.push(e);
    // Observer-fault warnings are kept for the assertions instead of printed; others pass on.
    process.emitWarning = ((warning: string | Error, options?: unknown, ...rest: unknown[]) => {
      if ((options as { type?: string } | undefined)?.type === OBSERVER_FAULT_WARNING.type) warnings.push({ message: String(warning) });
      else (emitWarning as (...args: unknown[]) => void).call(process, warning, options, ...rest);
    }) as typeof process.emitWarning;
  });
  afterEach(() => {
    config.onUnhandledError = previous;
    process.emitWarning = emitWarning;
  });

  async function world(): Promise<World> {
    const { mcp } = makeServer({ capabilities: { logging: {} } });
    mcp.registerTool('work', { description: 'reports progress' }, (_args, ctx) => {
      ctx.sendProgress(1, 2);
      return 'done';
    });
    mcp.registerPrompt('p', { description: 'a prompt' }, () => ({ messages: [] }));
    mcp.registerResource('r', 'test://r', {}, () => ({ contents: [{ uri: 'test://r', text: 'r' }] }));
    const { client, session } = await connect(mcp);
    return { mcp, client, session };
  }

  for (const c of CASES) {
    it(`${c.name}: the process stays up, the session keeps answering, the fault is reported`, async () => {
      const w = await world();
      const diagnostics: Diagnostic[] = [];
      w.client.diagnostics$.subscribe((d) => diagnostics.push(d));
      w.session.diagnostics$.subscribe((d) => diagnostics.push(d));
      const sub = c.observable(w).subscribe(bug);
      // A throwing operator in the user's own pipe, with no error handler, is isolated too.
      const piped = c.observable(w).pipe(map(bug)).subscribe(() => {});
      if (c.trigger) await c.trigger(w);
      await afterTimers();

      expect(unhandled, 'errors RxJS would rethrow as uncaught exceptions').to.deep.equal([]);
      // Both faulty subscriptions warned once each, however often they threw.
      expect(warnings).to.have.length(2);
      expect(warnings[0]!.message).to.match(/observer bug/);
      if (c.diagnosedOn) {
        expect(diagnostics.filter((d) => d.kind === 'observer-error').length).to.be.greaterThan(0);
      }
      // The session still answers, and a well-behaved observer still sees values.
      const result = await w.client.callTool('work', {});
      expect(result.content).to.deep.equal([{ type: 'text', text: 'done' }]);
      const frame = firstValueFrom(w.client.frames$.pipe(filter((f) => f.direction === 'in')));
      await w.client.ping();
      expect(await frame).to.have.property('direction', 'in');
      sub.unsubscribe();
      piped.unsubscribe();
      await w.client.close();
    });
  }

  it('a faulty observer keeps its subscription and sees later values', async () => {
    const w = await world();
    const seen: string[] = [];
    w.client.frames$.subscribe((f) => {
      seen.push(f.direction);
      throw new Error('every time');
    });
    await w.client.ping();
    await w.client.ping();
    await afterTimers();
    expect(seen).to.deep.equal(['out', 'in', 'out', 'in']);
    expect(unhandled).to.deep.equal([]);
    expect(warnings).to.have.length(1);
    await w.client.close();
  });

  it('host state$, tools$ and sessions$: the host stays up', async () => {
    const { mcp } = makeServer();
    mcp.registerTool('work', { description: 'w' }, () => 'done');
    const listening: Listening = await listen(createStreamableHttpHandler(mcp.server), { port: 0, logger: false });
    let h: Host | undefined;
    try {
      h = createHost({ servers: { mcpServers: { web: { type: 'http', url: listening.url } } }, clientOptions: { listChangedDebounceMs: 0 } });
      h.state$.subscribe(bug);
      h.sessions$.subscribe(bug);
      h.tools$.subscribe(bug);
      await h.start();
      await h.whenReady();
      const tools = await firstValueFrom(h.tools$.pipe(filter((t) => t.length === 1)));
      expect(tools.map((t) => t.name)).to.deep.equal(['web__work']);
      await afterTimers();
      expect(unhandled).to.deep.equal([]);
      expect(warnings.length).to.be.greaterThanOrEqual(3);
    } finally {
      await h?.close();
      await listening.close();
    }
  });
});
