/**
 * The person at the terminal: questions on stderr (stdout stays for results), a progress bar that
 * redraws one line, and the elicitation forms and sampling approvals a server may ask for.
 */
import { createInterface } from 'node:readline';
import type { FormElicitationAnswer, FormElicitationRequest, UrlElicitationRequest } from '../client-features/elicitation.js';
import type { CreateMessageRequestParams, CreateMessageResult } from '../protocol/schema/index.js';
import type { Style } from './style.js';

export interface TerminalIO {
  input: NodeJS.ReadableStream & { isTTY?: boolean };
  output: NodeJS.WritableStream & { isTTY?: boolean; columns?: number };
  style: Style;
  /** Called when the person presses Ctrl-C while a question is open. */
  onInterrupt(): void;
}

/** Ask one question; resolves with the line typed (without the newline). `ended` is shown when `signal` takes the question away. */
export function ask(io: TerminalIO, question: string, signal?: AbortSignal, ended = 'The server withdrew this request; nothing was sent.'): Promise<string> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) {
      reject(signal.reason ?? new Error('aborted'));
      return;
    }
    const rl = createInterface({ input: io.input, output: io.output, terminal: io.input.isTTY === true });
    const abort = () => {
      rl.close();
      // The question is gone (the server cancelled its request, say): say so on the line it left open.
      io.output.write(`\n${io.style.yellow(ended)}\n`);
      reject(signal?.reason ?? new Error('aborted'));
    };
    signal?.addEventListener('abort', abort, { once: true });
    rl.on('SIGINT', () => {
      rl.close();
      io.onInterrupt();
      reject(new Error('interrupted'));
    });
    rl.question(question, (answer) => {
      signal?.removeEventListener('abort', abort);
      rl.close();
      resolve(answer);
    });
  });
}

/** A one-line progress bar on a terminal; silent elsewhere. */
export class ProgressBar {
  private shown = false;
  constructor(
    private readonly out: TerminalIO['output'],
    private readonly style: Style,
  ) {}

  update(progress: number, total: number | undefined, message: string | undefined): void {
    if (!this.out.isTTY) return;
    const width = 24;
    let bar: string;
    let count: string;
    if (total !== undefined && total > 0) {
      const filled = Math.max(0, Math.min(width, Math.round((progress / total) * width)));
      bar = this.style.green('█'.repeat(filled)) + this.style.dim('░'.repeat(width - filled));
      count = `${progress}/${total}`;
    } else {
      const pos = Math.floor(progress) % width;
      bar = this.style.dim('░'.repeat(pos)) + this.style.green('█') + this.style.dim('░'.repeat(width - pos - 1));
      count = String(progress);
    }
    const columns = this.out.columns ?? 80;
    const text = message ? ` ${message}` : '';
    const line = `${bar} ${count}${text}`;
    this.out.write(`\r\x1b[2K${line.length > columns + 40 ? line.slice(0, columns + 40) : line}`);
    this.shown = true;
  }

  clear(): void {
    if (!this.shown) return;
    this.out.write('\r\x1b[2K');
    this.shown = false;
  }
}

type Field = Record<string, unknown>;

/** Read one field's answer; `undefined` when left empty. Throws a message when it is invalid. */
export function readField(field: Field, raw: string): unknown {
  const text = raw.trim();
  if (text === '') return undefined;
  const choices = fieldChoices(field);
  if (field.type === 'array') {
    const values = text.split(',').map((s) => s.trim()).filter(Boolean);
    return values.map((v) => pickChoice(choices, v));
  }
  if (choices.length) return pickChoice(choices, text);
  switch (field.type) {
    case 'boolean':
      if (/^(y|yes|true|1)$/i.test(text)) return true;
      if (/^(n|no|false|0)$/i.test(text)) return false;
      throw new Error('answer y or n');
    case 'integer':
    case 'number': {
      const n = Number(text);
      if (!Number.isFinite(n) || (field.type === 'integer' && !Number.isInteger(n))) throw new Error(`expected ${field.type === 'integer' ? 'a whole number' : 'a number'}`);
      return n;
    }
    default:
      return text;
  }
}

interface Choice {
  value: string;
  title: string;
}

function fieldChoices(field: Field): Choice[] {
  const source = (field.type === 'array' ? (field.items as Field | undefined) : field) ?? {};
  const oneOf = (source.oneOf ?? source.anyOf) as { const: string; title?: string }[] | undefined;
  if (Array.isArray(oneOf)) return oneOf.map((o) => ({ value: o.const, title: o.title ?? o.const }));
  const values = source.enum as string[] | undefined;
  const names = (source.enumNames ?? []) as string[];
  if (Array.isArray(values)) return values.map((v, i) => ({ value: v, title: names[i] ?? v }));
  return [];
}

function pickChoice(choices: Choice[], text: string): string {
  const n = Number(text);
  if (Number.isInteger(n) && n >= 1 && n <= choices.length) return choices[n - 1]!.value;
  const hit = choices.find((c) => c.value === text || c.title === text);
  if (!hit) throw new Error(`choose 1-${choices.length}`);
  return hit.value;
}

/**
 * Ask the person to fill a form-mode elicitation, field by field, then show everything that
 * would be sent and send it only on their word: they may edit it (their answers become the
 * defaults), decline or cancel.
 * @see https://modelcontextprotocol.io/specification/2026-07-28/client/elicitation#user-interaction-model
 */
export async function askForm(io: TerminalIO, request: FormElicitationRequest, signal: AbortSignal, errors: { field?: string; message: string }[] = []): Promise<FormElicitationAnswer> {
  const s = io.style;
  const who = request.server ? `${request.server.name}` : 'The server';
  io.output.write(`\n${s.bold(s.magenta(`${who} asks:`))} ${request.message}\n`);
  for (const e of errors) io.output.write(s.red(`  ${e.field ? e.field + ': ' : ''}${e.message}\n`));
  // Only a clear answer counts: a typo must not send the person's data (it is asked again).
  const decision = await choose(io, `${s.bold('Answer?')} [a]ccept / [d]ecline / [c]ancel: `, { a: 'accept', accept: 'accept', d: 'decline', decline: 'decline', c: 'cancel', cancel: 'cancel' }, signal);
  if (decision !== 'accept') return { action: decision };
  let previous: Record<string, unknown> = {};
  for (;;) {
    const content = await fillFields(io, request, previous, signal);
    const fields = request.requestedSchema.properties;
    io.output.write(`${s.bold(`To send to ${who}:`)}\n`);
    const names = Object.keys(content);
    if (names.length === 0) io.output.write(s.dim('  (nothing)\n'));
    for (const name of names) io.output.write(`  ${s.cyan(((fields[name] as Field | undefined)?.title as string | undefined) ?? name)}: ${JSON.stringify(content[name])}\n`);
    const next = await choose(
      io,
      `${s.bold('Send it?')} [s]end / [e]dit / [d]ecline / [c]ancel: `,
      { s: 'send', send: 'send', y: 'send', yes: 'send', e: 'edit', edit: 'edit', d: 'decline', decline: 'decline', c: 'cancel', cancel: 'cancel' },
      signal,
    );
    if (next === 'decline' || next === 'cancel') return { action: next };
    if (next === 'send') return { action: 'accept', content };
    previous = content;
  }
}

/** Ask until the answer is one of `words` (case and spaces ignored); anything else is asked again. */
async function choose<T extends string>(io: TerminalIO, prompt: string, words: Record<string, T>, signal: AbortSignal): Promise<T> {
  const letters = [...new Set(Object.keys(words).filter((w) => w.length === 1))].join(', ');
  for (;;) {
    const answer = (await ask(io, prompt, signal)).trim().toLowerCase();
    if (Object.hasOwn(words, answer)) return words[answer]!;
    io.output.write(io.style.red(`  Type one of ${letters}.\n`));
  }
}

/** One pass over the form's fields; `previous` answers (an edit) are offered as defaults. */
async function fillFields(io: TerminalIO, request: FormElicitationRequest, previous: Record<string, unknown>, signal: AbortSignal): Promise<Record<string, unknown>> {
  const s = io.style;
  const schema = request.requestedSchema;
  const required = new Set(schema.required ?? []);
  const content: Record<string, unknown> = {};
  for (const [name, raw] of Object.entries(schema.properties)) {
    const field = raw as unknown as Field;
    const choices = fieldChoices(field);
    const title = (field.title as string | undefined) ?? name;
    const def = previous[name] ?? request.defaults[name] ?? field.default;
    if (field.description) io.output.write(s.dim(`  ${String(field.description)}\n`));
    choices.forEach((c, i) => io.output.write(`    ${i + 1}) ${c.title}\n`));
    const hint = [field.type === 'array' ? 'comma-separated' : '', field.type === 'boolean' ? 'y/n' : '', def !== undefined ? `default ${JSON.stringify(def)}` : '', required.has(name) ? 'required' : 'optional']
      .filter(Boolean)
      .join(', ');
    for (;;) {
      const line = await ask(io, `  ${s.cyan(title)} ${s.dim(`(${hint})`)}: `, signal);
      try {
        const value = readField(field, line);
        if (value === undefined) {
          if (def !== undefined) content[name] = def;
          else if (required.has(name)) throw new Error('required');
        } else {
          content[name] = value;
        }
        break;
      } catch (e) {
        io.output.write(s.red(`    ${(e as Error).message}\n`));
      }
    }
  }
  return content;
}

/** Show a URL-mode elicitation and ask for consent before anything is opened. */
export async function askUrlConsent(io: TerminalIO, request: UrlElicitationRequest, signal: AbortSignal): Promise<'accept' | 'decline'> {
  const s = io.style;
  const who = request.server ? request.server.name : 'The server';
  io.output.write(`\n${s.bold(s.magenta(`${who} asks you to open a page:`))} ${request.message}\n`);
  io.output.write(`  URL:    ${request.url}\n  Domain: ${s.bold(request.domain)}${request.punycode ? s.red('  (punycode: may imitate another name)') : ''}\n`);
  const answer = (await ask(io, `${s.bold('Open it?')} (nothing is opened or fetched unless you say yes) [y/N]: `, signal)).trim().toLowerCase();
  if (answer === 'y' || answer === 'yes') {
    io.output.write(`  Open this URL in your browser: ${request.url}\n`);
    return 'accept';
  }
  return 'decline';
}

/**
 * After consent to a URL whose outcome only a retry of the call can tell: the person says when
 * they are done on the page (the call is retried then) or gives up (the call is cancelled).
 * @see https://modelcontextprotocol.io/specification/2026-07-28/client/elicitation#url-mode-elicitation-requests
 */
export async function askWhenDone(io: TerminalIO, signal: AbortSignal): Promise<'retry' | 'cancel'> {
  const s = io.style;
  const line = (await ask(io, `${s.bold('When you are done on the page')}, press Enter to go on, or c to cancel the call: `, signal, 'No need to wait: the server says the page is done (or the call ended).')).trim().toLowerCase();
  return line === 'c' || line === 'cancel' ? 'cancel' : 'retry';
}

/** Ask before a sampling request goes anywhere; the person then types the reply (the terminal has no model). */
export async function askSampling(io: TerminalIO, params: CreateMessageRequestParams, server: string | undefined, signal: AbortSignal): Promise<CreateMessageResult | undefined> {
  const s = io.style;
  io.output.write(`\n${s.bold(s.magenta(`${server ?? 'The server'} asks for a model completion:`))}\n`);
  if (params.systemPrompt) io.output.write(s.dim(`  system: ${params.systemPrompt}\n`));
  for (const m of params.messages) {
    const blocks = Array.isArray(m.content) ? m.content : [m.content];
    for (const b of blocks) io.output.write(`  ${m.role}: ${b.type === 'text' ? b.text : `[${b.type}]`}\n`);
  }
  io.output.write(s.dim(`  maxTokens ${params.maxTokens}\n`));
  const ok = (await ask(io, `${s.bold('Allow?')} Nothing is sent unless you say yes [y/N]: `, signal)).trim().toLowerCase();
  if (ok !== 'y' && ok !== 'yes') return undefined;
  const text = await ask(io, `  Reply as the model: `, signal);
  return { role: 'assistant', content: { type: 'text', text }, model: 'human-at-terminal', stopReason: 'endTurn' };
}
