/**
 * One line per journal entry for people: who sent what (client → server, server → client), when,
 * the request it answers with its duration, errors, and the session's state changes.
 */
import type { JournalEntry } from '../journal/entry.js';
import type { StateTracker } from './session-states.js';
import type { Style } from './style.js';
import { printable } from './printable.js';

type AnyFrame = Record<string, any>;

export interface Row {
  seq: number;
  t: number;
  /** `c→s`, `s→c`, or a kind for entries that are not frames. */
  dir: string;
  label: string;
  error?: string;
  /** Set on responses: how long the request took (ms). */
  ms?: number;
}

function frameLabel(f: AnyFrame, method: string | undefined): { label: string; error?: string } {
  if (typeof f.method === 'string') {
    const id = f.id !== undefined ? ` #${JSON.stringify(f.id)}` : '';
    const name = f.params?.name ?? f.params?.uri ?? (f.method === 'notifications/progress' ? `${f.params?.progress}${f.params?.total !== undefined ? `/${f.params.total}` : ''}${f.params?.message ? ` ${f.params.message}` : ''}` : undefined);
    // A retry of a multi round-trip request (2026-07-28) names the answers it carries.
    const answers = f.params?.inputResponses !== undefined && f.params.inputResponses !== null ? Object.keys(f.params.inputResponses) : undefined;
    const retry = answers !== undefined ? ` (retry: ${answers.join(', ') || 'no answers'})` : typeof f.params?.requestState === 'string' ? ' (retry)' : '';
    return { label: `${f.method}${id}${name !== undefined ? ` ${String(name)}` : ''}${retry}` };
  }
  if (f.error) return { label: `error #${JSON.stringify(f.id)}${method ? ` (${method})` : ''}`, error: `${f.error.code} ${f.error.message}` };
  if (f.result?.resultType === 'input_required') {
    const keys = Object.keys(f.result.inputRequests ?? {});
    return { label: `input_required #${JSON.stringify(f.id)}${method ? ` (${method})` : ''}${keys.length ? `: ${keys.join(', ')}` : ''}${typeof f.result.requestState === 'string' ? ' +requestState' : ''}` };
  }
  const extra = f.result?.isError ? ' isError' : '';
  return { label: `result #${JSON.stringify(f.id)}${method ? ` (${method})` : ''}${extra}`, ...(extra && { error: 'the tool reported isError' }) };
}

/**
 * The row of entry `e`; its time is counted from `start` (the header's `startedAt`: a library
 * journal stamps entries with its clock's time, a proxy recording from 0).
 */
/** The interceptor stages a request met (` via a > b`), and the one that answered (`, short-circuited by b`). */
function stagesLabel(stages: readonly string[] | undefined, shortCircuitBy: string | undefined): string {
  if (stages === undefined || stages.length === 0) return shortCircuitBy === undefined ? '' : ` short-circuited by ${printable(shortCircuitBy)}`;
  return ` via ${stages.map((s) => printable(s)).join(' > ')}${shortCircuitBy === undefined ? '' : `, short-circuited by ${printable(shortCircuitBy)}`}`;
}

export function rowOf(e: JournalEntry, index: number, clientKind: 'in' | 'out', tracker: StateTracker | undefined, start = 0): Row {
  const base = { seq: e.seq, t: e.t - start };
  switch (e.kind) {
    case 'in':
    case 'out': {
      const dir = e.kind === clientKind ? 'c→s' : 's→c';
      if (!('frame' in e)) return { ...base, dir, label: 'text' in e ? `unparseable: ${e.text.slice(0, 60)}` : 'oversize frame', error: 'not JSON-RPC' };
      const frames = (Array.isArray(e.frame) ? e.frame : [e.frame]) as AnyFrame[];
      const r = tracker ? tracker.requests[tracker.entryRequest[index] ?? -1] : undefined;
      const parts = frames.map((f) => frameLabel(f, r?.method));
      const error = parts.find((p) => p.error)?.error;
      const isResponse = frames.some((f) => f.method === undefined);
      return { ...base, dir, label: (frames.length > 1 ? `batch of ${frames.length}: ` : '') + parts.map((p) => p.label).join(', '), ...(error && { error }), ...(isResponse && r?.end === index && r.ms !== undefined && { ms: r.ms }) };
    }
    case 'transport':
      return { ...base, dir: 'transport', label: e.phase, ...(e.error && { error: e.error }) };
    case 'call':
      return { ...base, dir: 'call', label: e.op === 'request' ? `request ${e.method} #${JSON.stringify(e.id)}` : e.op === 'notify' ? `notify ${e.method}` : e.op === 'abort' ? `abort #${JSON.stringify(e.id)}` : e.op === 'listen' ? `listen ${e.filter ? printable(e.filter).slice(0, 80) : '(none)'}` : 'close' };
    // The request era's entries (journal version 2): the client's input answers, its input rounds, each call's outcome.
    case 'answer':
      return { ...base, dir: 'answer', label: `${e.method} ${e.key}`, ...('error' in e && { error: e.error.message }) };
    case 'round':
      return { ...base, dir: 'round', label: `${e.method}${e.name !== undefined ? ` ${e.name}` : ''} round ${e.round} ${e.state}${e.keys?.length ? `: ${e.keys.join(', ')}` : ''}` };
    case 'result':
      return { ...base, dir: 'result', label: `#${JSON.stringify(e.call)} ${'error' in e ? 'failed' : 'resolved'}`, ...('error' in e && { error: e.error.message }) };
    case 'timer':
      // A server's journal of 2026-07-28 requests: the request it fired for (wire ids repeat across clients).
      return { ...base, dir: 'timer', label: e.rq === undefined ? e.name : `${e.name} for request ${e.rq}` };
    case 'note':
      return { ...base, dir: 'note', label: `${e.note}${e.detail ? ` ${printable(e.detail).slice(0, 80)}` : ''}` };
    // A server's journal of 2026-07-28 requests: the client going away from request `rq`, and the request machine's final state.
    case 'cancel':
      return { ...base, dir: 'cancel', label: `request ${e.rq} cancelled${e.reason !== undefined ? `: ${e.reason}` : ''}` };
    case 'stages':
      return { ...base, dir: 'stages', label: `${e.method} #${JSON.stringify(e.id)}${stagesLabel(e.stages, e.shortCircuitBy)}` };
    case 'state':
      return { ...base, dir: 'state', label: `request ${e.rq} ${e.state}${stagesLabel(e.stages, e.shortCircuitBy)}` };
  }
}

export function formatRow(r: Row, s: Style): string {
  const dir = r.dir === 'c→s' ? s.cyan('client → server') : r.dir === 's→c' ? s.yellow('server → client') : s.dim(r.dir.padEnd(15));
  const ms = r.ms !== undefined ? s.dim(` (${r.ms.toFixed(1)} ms)`) : '';
  const err = r.error ? ` ${s.red(r.error)}` : '';
  return `${s.dim(`#${String(r.seq).padStart(4)} ${formatTime(r.t).padStart(11)}`)}  ${dir}  ${r.label}${ms}${err}`;
}

/** A time since the start of the recording: `+12.0 ms`, `+1.234 s`. */
export function formatTime(ms: number): string {
  return ms < 1000 ? `+${ms.toFixed(1)} ms` : `+${(ms / 1000).toFixed(3)} s`;
}
