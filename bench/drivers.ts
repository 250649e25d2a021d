/**
 * One driver per (implementation, transport): it connects a client to an echo server and
 * makes one `tools/call` per `call()`, each side written as a user of that SDK writes it (the
 * high-level server API and the client's `callTool`). In-memory drivers run the server in this
 * process; stdio drivers spawn it with `process.execPath`.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { Client as SdkClient } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport as SdkStdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { Client as Sdk2Client, InMemoryTransport as Sdk2InMemoryTransport } from '@modelcontextprotocol/client';
import { StdioClientTransport as Sdk2StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { Client } from '../lib/entries/client.js';
import { createMemoryPair } from '../streams/memory.js';
import { createStdioClientTransport } from '../streams/stdio-client.js';
import { CLIENT_INFO, TEXT, TOOL, serverArgs, type ImplName, type TransportName } from './common.js';
import { bareAnswer, bareRequest, lineSplitter } from './echo/bare.js';
import { createOursServer } from './echo/ours.js';
import { createSdkMcpServer } from './echo/sdk.js';
import { createSdk2McpServer } from './echo/sdk2.js';

/** Our client's era in the memory and stdio rows (`BENCH_ERA`: legacy, modern; default auto, which finds 2026-07-28). */
const OURS_ERA = process.env.BENCH_ERA as 'legacy' | 'modern' | undefined;

export interface Driver {
  readonly label: string;
  /** The stdio server's process id (for its CPU time). */
  readonly serverPid?: number;
  /** One echo call; resolves with the echoed text. */
  call(): Promise<string>;
  close(): Promise<void>;
}

const PARAMS = { name: TOOL, arguments: { text: TEXT } };

// ------------------------------------------------------------------ ours

function oursDriver(label: string, client: Client, close: () => Promise<void>, serverPid?: number): Driver {
  return {
    label,
    serverPid,
    // The typed API, as the SDK rows use theirs (`callTool`).
    call: () => client.callTool(TOOL, PARAMS.arguments).then(textOf),
    close,
  };
}

async function oursMemory(serialize: boolean): Promise<Driver> {
  const [c, s] = createMemoryPair({ serialize });
  const server = createOursServer();
  await server.connect(s);
  const client = new Client({ info: CLIENT_INFO, ...(OURS_ERA && { era: OURS_ERA }) });
  await client.connect(c);
  return oursDriver(serialize ? 'ours, memory, serialize:true' : 'ours, memory', client, async () => {
    await client.close();
    await server.close();
  });
}

async function oursStdio(execArgv: string[]): Promise<Driver> {
  const transport = createStdioClientTransport({ command: process.execPath, args: [...execArgv, ...serverArgs('ours-stdio')] });
  const client = new Client({ info: CLIENT_INFO, ...(OURS_ERA && { era: OURS_ERA }) });
  await client.connect(transport);
  return oursDriver('ours, stdio', client, () => client.close(), transport.pid);
}

// ------------------------------------------------------------------ SDK 1.x

function sdkDriver(label: string, client: { callTool(params: typeof PARAMS): Promise<unknown> }, close: () => Promise<void>, serverPid?: number): Driver {
  return {
    label,
    serverPid,
    call: () => client.callTool(PARAMS).then(textOf),
    close,
  };
}

async function sdkMemory(): Promise<Driver> {
  const [ct, st] = InMemoryTransport.createLinkedPair();
  const server = createSdkMcpServer();
  await server.connect(st);
  const client = new SdkClient(CLIENT_INFO);
  await client.connect(ct);
  return sdkDriver('sdk 1.x, memory', client, async () => {
    await client.close();
    await server.close();
  });
}

async function sdkStdio(execArgv: string[]): Promise<Driver> {
  const transport = new SdkStdioClientTransport({ command: process.execPath, args: [...execArgv, ...serverArgs('sdk-stdio')] });
  const client = new SdkClient(CLIENT_INFO);
  await client.connect(transport);
  return sdkDriver('sdk 1.x, stdio', client, () => client.close(), transport.pid ?? undefined);
}

// ------------------------------------------------------------------ SDK v2

async function sdk2Memory(): Promise<Driver> {
  const [ct, st] = Sdk2InMemoryTransport.createLinkedPair();
  const server = createSdk2McpServer();
  await server.connect(st);
  const client = new Sdk2Client(CLIENT_INFO);
  await client.connect(ct);
  return sdkDriver('sdk v2, memory', client, async () => {
    await client.close();
    await server.close();
  });
}

async function sdk2Stdio(execArgv: string[]): Promise<Driver> {
  const transport = new Sdk2StdioClientTransport({ command: process.execPath, args: [...execArgv, ...serverArgs('sdk2-stdio')] });
  const client = new Sdk2Client(CLIENT_INFO);
  await client.connect(transport);
  return sdkDriver('sdk v2, stdio', client, () => client.close(), transport.pid ?? undefined);
}

// ------------------------------------------------------------------ bare JSON-RPC (the ceiling)

type Pending = Map<number, (text: string) => void>;

function bareSettle(pending: Pending, line: string): void {
  const msg = JSON.parse(line) as { id: number; result: unknown };
  const resolve = pending.get(msg.id);
  if (resolve) {
    pending.delete(msg.id);
    resolve(textOf(msg.result));
  }
}

/** One end of a bare in-memory channel: text frames, delivered one microtask later in batches (as ours). */
class BareEnd {
  peer!: BareEnd;
  onmessage: (text: string) => void = () => {};
  private queue: string[] = [];
  private scheduled = false;
  private readonly flush = (): void => {
    this.scheduled = false;
    const q = this.queue;
    this.queue = [];
    for (let i = 0; i < q.length; i++) this.onmessage(q[i]!);
  };
  send(text: string): void {
    const p = this.peer;
    p.queue.push(text);
    if (!p.scheduled) {
      p.scheduled = true;
      queueMicrotask(p.flush);
    }
  }
}

function bareMemory(): Driver {
  const a = new BareEnd();
  const b = new BareEnd();
  a.peer = b;
  b.peer = a;
  b.onmessage = (text) => b.send(bareAnswer(text));
  const pending: Pending = new Map();
  a.onmessage = (text) => bareSettle(pending, text);
  let nextId = 0;
  return {
    label: 'bare JSON-RPC, memory',
    call: () =>
      new Promise<string>((resolve) => {
        const id = nextId++;
        pending.set(id, resolve);
        a.send(bareRequest(id, PARAMS));
      }),
    close: async () => {},
  };
}

async function bareStdio(execArgv: string[]): Promise<Driver> {
  const child: ChildProcess = spawn(process.execPath, [...execArgv, ...serverArgs('bare-stdio')], { stdio: ['pipe', 'pipe', 'inherit'] });
  await new Promise<void>((resolve, reject) => {
    child.once('spawn', resolve);
    child.once('error', reject);
  });
  const stdin = child.stdin!;
  const stdout = child.stdout!;
  stdout.setEncoding('utf8');
  const pending: Pending = new Map();
  stdout.on('data', lineSplitter((line) => bareSettle(pending, line)));
  // Writes made in one tick go out as one write(), as our FrameWriter does.
  let out = '';
  let scheduled = false;
  const flush = (): void => {
    scheduled = false;
    const chunk = out;
    out = '';
    stdin.write(chunk);
  };
  let nextId = 0;
  return {
    label: 'bare JSON-RPC, stdio',
    serverPid: child.pid,
    call: () =>
      new Promise<string>((resolve) => {
        const id = nextId++;
        pending.set(id, resolve);
        out += bareRequest(id, PARAMS) + '\n';
        if (!scheduled) {
          scheduled = true;
          queueMicrotask(flush);
        }
      }),
    close: () =>
      new Promise<void>((resolve) => {
        child.once('exit', () => resolve());
        stdin.end();
      }),
  };
}

// ------------------------------------------------------------------ factory

export async function createDriver(impl: ImplName, transport: TransportName, serverExecArgv: string[] = []): Promise<Driver> {
  if (transport === 'http' || transport === 'modern') throw new Error('HTTP rows use createHttpDriver (http-drivers.ts), modern rows createModernDriver (modern-drivers.ts)');
  if (transport === 'memory') {
    switch (impl) {
      case 'ours':
        return oursMemory(false);
      case 'ours-serialize':
        return oursMemory(true);
      case 'sdk1':
        return sdkMemory();
      case 'sdk2':
        return sdk2Memory();
      case 'bare':
        return bareMemory();
    }
  }
  switch (impl) {
    case 'ours':
      return oursStdio(serverExecArgv);
    case 'sdk1':
      return sdkStdio(serverExecArgv);
    case 'sdk2':
      return sdk2Stdio(serverExecArgv);
    case 'bare':
      return bareStdio(serverExecArgv);
    default:
      throw new Error(`No stdio driver for ${impl}`);
  }
}

function textOf(result: unknown): string {
  const content = (result as { content?: { text?: unknown }[] }).content;
  return String(content?.[0]?.text);
}
