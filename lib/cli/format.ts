/**
 * Human output of results: content blocks as text, lists as aligned names with descriptions.
 * `--json` prints the raw result instead.
 */
import type { Style } from './style.js';

type Obj = Record<string, unknown>;

/** One content block as terminal text. */
export function formatBlock(block: Obj, s: Style): string {
  switch (block.type) {
    case 'text':
      return String(block.text);
    case 'image':
    case 'audio': {
      const bytes = typeof block.data === 'string' ? Math.floor((block.data.length * 3) / 4) : 0;
      return s.dim(`[${block.type} ${String(block.mimeType)}, ${bytes} bytes]`);
    }
    case 'resource': {
      const r = (block.resource ?? {}) as Obj;
      const body = typeof r.text === 'string' ? r.text : s.dim(`[${String(r.mimeType ?? 'binary')} blob]`);
      return `${s.cyan(String(r.uri))}\n${body}`;
    }
    case 'resource_link':
      return `${s.cyan(String(block.uri))}${block.name ? ` ${s.dim(String(block.name))}` : ''}`;
    default:
      return s.dim(JSON.stringify(block));
  }
}

export function formatContent(content: unknown, s: Style): string {
  if (!Array.isArray(content)) return '';
  return content.map((b) => formatBlock(b as Obj, s)).join('\n');
}

/** A titled list of named things with their descriptions, aligned. */
export function formatList(title: string, items: Obj[], key: string, s: Style, detail?: (item: Obj) => string | undefined): string {
  const lines = [s.bold(`${title} (${items.length})`)];
  const width = Math.min(40, Math.max(0, ...items.map((i) => String(i[key]).length)));
  for (const item of items) {
    const name = String(item[key]);
    const desc = (item.title && item.title !== name ? `${String(item.title)}: ` : '') + String(item.description ?? '').split('\n')[0];
    const extra = detail?.(item);
    lines.push(`  ${s.cyan(name.padEnd(width))}  ${desc}${extra ? ` ${s.dim(extra)}` : ''}`);
  }
  return lines.join('\n');
}

/** The arguments of a tool's input schema, as `name:type` with `?` for optional ones. */
export function schemaSignature(schema: unknown): string {
  const sch = (schema ?? {}) as { properties?: Record<string, Obj>; required?: string[] };
  const req = new Set(sch.required ?? []);
  return Object.entries(sch.properties ?? {})
    .map(([k, v]) => `${k}${req.has(k) ? '' : '?'}:${String(v.type ?? 'any')}`)
    .join(' ');
}

export function json(value: unknown): string {
  return JSON.stringify(value, null, 2);
}

/** A value as JSON on one line, cut at 300 characters. */
export function short(v: unknown): string {
  const t = JSON.stringify(v);
  return t === undefined ? 'undefined' : t.length > 300 ? t.slice(0, 299) + '…' : t;
}
