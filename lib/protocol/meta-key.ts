/**
 * `_meta` key names: an optional prefix (dot-separated labels ending in `/`) and a name.
 * Prefixes with a `modelcontextprotocol` or `mcp` label followed by another label are reserved for MCP.
 * @see https://modelcontextprotocol.io/specification/2025-11-25/basic#meta
 */

const LABEL = /^[A-Za-z](?:[A-Za-z0-9-]*[A-Za-z0-9])?$/;
const NAME = /^(?:[A-Za-z0-9](?:[A-Za-z0-9._-]*[A-Za-z0-9])?)?$/;

/** What is wrong with a `_meta` key, or undefined when it is well formed. */
export function checkMetaKey(key: string): string | undefined {
  const slash = key.lastIndexOf('/');
  const prefix = slash >= 0 ? key.slice(0, slash) : undefined;
  const name = slash >= 0 ? key.slice(slash + 1) : key;
  if (prefix !== undefined) {
    const labels = prefix.split('.');
    const bad = labels.find((l) => !LABEL.test(l));
    if (bad !== undefined) {
      return `_meta key "${key}": prefix label "${bad}" must start with a letter, end with a letter or digit, and contain only letters, digits and hyphens`;
    }
  }
  if (!NAME.test(name)) {
    return `_meta key "${key}": the name must begin and end with a letter or digit and contain only letters, digits, "-", "_" and "."`;
  }
  return undefined;
}

/**
 * Whether a key's prefix is reserved for MCP: any labels, then `modelcontextprotocol` or `mcp`,
 * then one more label (`io.modelcontextprotocol/`, `dev.mcp/`...).
 */
export function isReservedMetaKey(key: string): boolean {
  const slash = key.lastIndexOf('/');
  if (slash < 0) return false;
  const labels = key.slice(0, slash).split('.');
  for (let i = 0; i < labels.length - 1; i++) {
    if (labels[i] === 'modelcontextprotocol' || labels[i] === 'mcp') return true;
  }
  return false;
}
