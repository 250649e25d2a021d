/**
 * Serve the files of one directory as `file://` resources, safely: a read resolves the URI to a
 * path and serves it only when it lies inside the directory, after `..` segments (plain or
 * percent-encoded) and symbolic links are resolved. Hidden files (a segment starting with `.`,
 * such as `.env` or `.git/`) are not served unless asked for; reads are bounded in size.
 * @see https://modelcontextprotocol.io/specification/2026-07-28/server/resources#security-considerations
 */
import type { Dirent } from 'node:fs';
import { open, readdir, realpath } from 'node:fs/promises';
import { extname, isAbsolute, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { ErrorCode } from '../jsonrpc/error-codes.js';
import { McpError, ResourceNotFoundError } from '../errors.js';
import type { ListedResource, ReadResourceOutput, RegisteredResourceTemplate, ResourceTemplateMetadata } from './resources.js';
import type { ReadTemplateCallback } from './resources.js';

/** What {@link serveDirectory} registers on: an `McpServer` (or anything with its method). */
export interface ResourceTemplateRegistrar {
  registerResourceTemplate(name: string, uriTemplate: string, metadata: ResourceTemplateMetadata, read: ReadTemplateCallback): RegisteredResourceTemplate;
}

/** Options of {@link serveDirectory}. */
export interface ServeDirectoryOptions {
  /** The template's name in `resources/templates/list`. Default `files`. */
  name?: string;
  description?: string;
  /** Serve files and folders whose name starts with `.` (`.env`, `.git/`). Default false. */
  includeHidden?: boolean;
  /** Largest file a read returns, in bytes; a bigger one is refused (-32602). Default 10 MiB. */
  maxBytes?: number;
  /** At most this many files in `resources/list` (a walk stops there). Default 1000; 0: not listed. */
  maxListed?: number;
  /** The MIME type of a file (undefined: guessed from its extension). */
  mimeType?: (path: string) => string | undefined;
}

const TEXT_TYPES: Record<string, string> = {
  '.txt': 'text/plain',
  '.md': 'text/markdown',
  '.json': 'application/json',
  '.csv': 'text/csv',
  '.html': 'text/html',
  '.css': 'text/css',
  '.js': 'text/javascript',
  '.ts': 'text/x-typescript',
  '.xml': 'application/xml',
  '.yaml': 'application/yaml',
  '.yml': 'application/yaml',
};
const BINARY_TYPES: Record<string, string> = {
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.gif': 'image/gif',
  '.webp': 'image/webp',
  '.pdf': 'application/pdf',
};

function guessType(path: string): string {
  const ext = extname(path).toLowerCase();
  return TEXT_TYPES[ext] ?? BINARY_TYPES[ext] ?? 'application/octet-stream';
}
const isText = (mimeType: string) => mimeType.startsWith('text/') || /^application\/(json|xml|yaml)$/.test(mimeType);

/** `path` relative to `root` when it lies inside it (not `root` itself), else undefined. */
function inside(root: string, path: string): string | undefined {
  const rel = relative(root, path);
  if (rel === '' || rel === '..' || rel.startsWith('..' + sep) || isAbsolute(rel)) return undefined;
  return rel;
}
const hidden = (rel: string) => rel.split(sep).some((segment) => segment.startsWith('.'));

/**
 * Register a resource template `file:///<dir>/{+path}` that serves the regular files under
 * `dir`. A URI that resolves outside `dir` (`..`, `%2e%2e`, an encoded `/`, a symbolic link
 * pointing out) or to a hidden file is refused with -32602 before any file is opened; a file
 * that does not exist is not found (-32002, or -32602 with its `uri` from 2026-07-28).
 * `resources/list` lists the files (up to `maxListed`).
 *
 * @example
 * serveDirectory(mcp, './docs'); // file:///abs/path/docs/guide.md, ...
 * @see https://modelcontextprotocol.io/specification/2026-07-28/server/resources#security-considerations
 */
export function serveDirectory(server: ResourceTemplateRegistrar, dir: string, options: ServeDirectoryOptions = {}): RegisteredResourceTemplate {
  const { name = 'files', includeHidden = false, maxBytes = 10 * 1024 * 1024, maxListed = 1000, mimeType = () => undefined } = options;
  if (!(maxBytes >= 0)) throw new TypeError(`maxBytes must be 0 or more; got ${maxBytes}`);
  const root = resolve(dir);
  const rootUrl = pathToFileURL(root).href.replace(/\/$/, '');
  // The directory's real path, resolved once: links inside are compared against it.
  let realRoot: Promise<string> | undefined;
  const realRootOf = () => (realRoot ??= realpath(root));
  const typeOf = (path: string) => mimeType(path) ?? guessType(path);

  const refuse = (uri: string, why: string) => new McpError(ErrorCode.InvalidParams, `Cannot read ${JSON.stringify(uri.slice(0, 300))}: ${why}`, { uri: uri.slice(0, 2048) });

  const read: ReadTemplateCallback = async (uri) => {
    let path: string;
    try {
      // The URL parser resolves `.`/`..` segments, encoded or not; an encoded `/` or a NUL is refused here.
      path = fileURLToPath(new URL(uri));
    } catch {
      throw refuse(uri, 'not a file:// URI of a path');
    }
    if (path.includes('\0')) throw refuse(uri, 'not a file:// URI of a path');
    const rel = inside(root, resolve(path));
    if (rel === undefined) throw refuse(uri, 'it is outside the served directory');
    if (!includeHidden && hidden(rel)) throw refuse(uri, 'hidden files are not served');
    let real: string;
    try {
      real = await realpath(path);
    } catch {
      throw new ResourceNotFoundError(uri);
    }
    // A symbolic link may point anywhere: what counts is where it leads.
    const realRel = inside(await realRootOf(), real);
    if (realRel === undefined) throw refuse(uri, 'it is a link that leads outside the served directory');
    if (!includeHidden && hidden(realRel)) throw refuse(uri, 'hidden files are not served');
    const handle = await open(real, 'r').catch(() => {
      throw new ResourceNotFoundError(uri);
    });
    try {
      const stat = await handle.stat();
      if (!stat.isFile()) throw new ResourceNotFoundError(uri);
      if (stat.size > maxBytes) throw refuse(uri, `the file has ${stat.size} bytes; at most ${maxBytes} are served`);
      const bytes = await handle.readFile();
      const type = typeOf(real);
      const contents: ReadResourceOutput['contents'] = [isText(type) ? { uri, mimeType: type, text: bytes.toString('utf8') } : { uri, mimeType: type, blob: new Uint8Array(bytes) }];
      return { contents };
    } finally {
      await handle.close();
    }
  };

  const list = async (): Promise<ListedResource[]> => {
    const found: ListedResource[] = [];
    const walk = async (folder: string): Promise<void> => {
      let entries: Dirent[];
      try {
        entries = await readdir(folder, { withFileTypes: true });
      } catch {
        return;
      }
      entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
      for (const entry of entries) {
        if (found.length >= maxListed) return;
        if (!includeHidden && entry.name.startsWith('.')) continue;
        const path = join(folder, entry.name);
        // Links are not followed when listing (a read still may, inside the directory).
        if (entry.isDirectory()) await walk(path);
        else if (entry.isFile()) found.push({ uri: pathToFileURL(path).href, name: relative(root, path).split(sep).join('/'), mimeType: typeOf(path) });
      }
    };
    if (maxListed > 0) await walk(root);
    return found;
  };

  return server.registerResourceTemplate(
    name,
    `${rootUrl}/{+path}`,
    { description: options.description ?? `Files under ${root}`, ...(maxListed > 0 && { list }) },
    read,
  );
}
