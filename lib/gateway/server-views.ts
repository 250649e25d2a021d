/**
 * Per-server views: which of an upstream's tools, prompts, resources and resource templates the
 * gateway mounts, and under which names. Given as the gateway's `views` option or as the same keys
 * in an `mcpServers` entry (`"tools": { "exclude": ["delete_*"], "rename": { "echo": "say" } }`).
 * A name left out is not mounted at all: no caller lists it, and one that names it is answered as
 * for any unknown name (-32602). Renaming changes the name after the namespace
 * (`<server>__<new>`); calls still reach the upstream under its own name. Resources and templates
 * keep their URIs (their contents name them), so they are only filtered, by URI and URI template.
 * @see https://modelcontextprotocol.io/specification/2025-11-25/server/tools#listing-tools
 */

/** Include/exclude by name (`*` matches any run of characters), then rename (`{ upstreamName: shownName }`). */
export interface NameRules {
  /** Only these (exact names or `*` patterns); default all. */
  include?: string[];
  /** Not these (applied after `include`). */
  exclude?: string[];
  /** The name to show for an upstream name (before the namespace is added). */
  rename?: Record<string, string>;
}

/** A function instead: the shown name, `true` for the same name, `false` to hide it. */
export type NameFunction = (name: string) => string | boolean;

export type UriRules = Omit<NameRules, 'rename'> | ((uri: string) => boolean);

export interface ServerView {
  tools?: NameRules | NameFunction;
  prompts?: NameRules | NameFunction;
  /** Resources, by URI. */
  resources?: UriRules;
  /** Resource templates, by URI template. */
  templates?: UriRules;
}

const VIEW_KEYS = ['tools', 'prompts', 'resources', 'templates'] as const;

/** A compiled view: the shown local name of an item, or undefined when it is hidden. */
export interface CompiledView {
  tool(name: string): string | undefined;
  prompt(name: string): string | undefined;
  resource(uri: string): boolean;
  template(uriTemplate: string): boolean;
}

const ALL: CompiledView = { tool: (n) => n, prompt: (n) => n, resource: () => true, template: () => true };

function pattern(p: string): RegExp {
  return new RegExp(`^${p.split('*').map((s) => s.replace(/[.+?^${}()|[\]\\]/g, '\\$&')).join('.*')}$`);
}

function strings(value: unknown, where: string): string[] | undefined {
  if (value === undefined) return undefined;
  if (!Array.isArray(value) || value.some((v) => typeof v !== 'string')) throw new TypeError(`${where} must be an array of names`);
  return value as string[];
}

/** Keeps what `include`/`exclude` allow. */
function allowed(rules: Record<string, unknown>, where: string): (name: string) => boolean {
  const include = strings(rules.include, `${where}.include`)?.map(pattern);
  const exclude = strings(rules.exclude, `${where}.exclude`)?.map(pattern) ?? [];
  return (name) => (include === undefined || include.some((r) => r.test(name))) && !exclude.some((r) => r.test(name));
}

function names(rules: unknown, where: string): (name: string) => string | undefined {
  if (rules === undefined) return (n) => n;
  if (typeof rules === 'function') {
    return (n) => {
      const shown = (rules as NameFunction)(n);
      return shown === true ? n : typeof shown === 'string' && shown !== '' ? shown : undefined;
    };
  }
  if (rules === null || typeof rules !== 'object' || Array.isArray(rules)) throw new TypeError(`${where} must be { include, exclude, rename } or a function`);
  const r = rules as Record<string, unknown>;
  for (const k of Object.keys(r)) if (!['include', 'exclude', 'rename'].includes(k)) throw new TypeError(`${where}: unknown key "${k}"; expected include, exclude or rename`);
  const keep = allowed(r, where);
  const rename = r.rename ?? {};
  if (rename === null || typeof rename !== 'object' || Object.values(rename).some((v) => typeof v !== 'string' || v === '')) throw new TypeError(`${where}.rename must map names to non-empty names`);
  const shown = Object.values(rename as Record<string, string>);
  const twice = shown.find((v, i) => shown.indexOf(v) !== i);
  if (twice !== undefined) throw new TypeError(`${where}.rename gives two names the name "${twice}"`);
  return (n) => (keep(n) ? ((rename as Record<string, string>)[n] ?? n) : undefined);
}

function uris(rules: unknown, where: string): (uri: string) => boolean {
  if (rules === undefined) return () => true;
  if (typeof rules === 'function') return (u) => (rules as (uri: string) => boolean)(u) === true;
  if (rules === null || typeof rules !== 'object' || Array.isArray(rules)) throw new TypeError(`${where} must be { include, exclude } or a function`);
  for (const k of Object.keys(rules)) if (!['include', 'exclude'].includes(k)) throw new TypeError(`${where}: unknown key "${k}"; expected include or exclude (URIs are not renamed)`);
  return allowed(rules as Record<string, unknown>, where);
}

/** Check and compile `view` (of the server `server`); throws a TypeError naming what is wrong. */
export function compileView(server: string, view: unknown): CompiledView {
  if (view === undefined) return ALL;
  if (view === null || typeof view !== 'object' || Array.isArray(view)) throw new TypeError(`views.${server} must be an object`);
  for (const k of Object.keys(view)) if (!(VIEW_KEYS as readonly string[]).includes(k)) throw new TypeError(`views.${server}: unknown key "${k}"; expected ${VIEW_KEYS.join(', ')}`);
  const v = view as Record<string, unknown>;
  return {
    tool: names(v.tools, `${server}.tools`),
    prompt: names(v.prompts, `${server}.prompts`),
    resource: uris(v.resources, `${server}.resources`),
    template: uris(v.templates, `${server}.templates`),
  };
}

/** The view keys of an `mcpServers` entry, if it has any. */
export function viewOfEntry(entry: unknown): ServerView | undefined {
  if (entry === null || typeof entry !== 'object') return undefined;
  const picked = Object.fromEntries(VIEW_KEYS.filter((k) => k in entry).map((k) => [k, (entry as Record<string, unknown>)[k]]));
  return Object.keys(picked).length > 0 ? (picked as ServerView) : undefined;
}
