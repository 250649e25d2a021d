/**
 * IP addresses and CIDR ranges (`10.0.0.0/8`, `fd00::/8`), for naming trusted proxies by subnet.
 * Every address is held as 16 bytes: an IPv4 address as its IPv4-mapped IPv6 form
 * (`::ffff:a.b.c.d`, RFC 4291 §2.5.5.2) and an IPv4 prefix length plus 96, so an IPv4 range
 * matches a peer a dual-stack socket reports as `::ffff:10.1.2.3` with no special case. The
 * families stay apart all the same: an IPv4 peer is in IPv4 ranges only (or ranges written inside
 * `::ffff:0:0/96`), so an IPv6 range such as `::/0` or `::/64` never trusts every IPv4 address.
 * @see https://www.rfc-editor.org/rfc/rfc4632 (CIDR)
 * @see https://www.rfc-editor.org/rfc/rfc4291#section-2.3 (IPv6 prefixes)
 */

/** A range: the first `prefix` bits of `bytes` (16 bytes; bits past the prefix are zero). */
export interface IpRange {
  readonly bytes: Uint8Array;
  readonly prefix: number;
  /** Whether it is a range of IPv4 addresses (it lies inside `::ffff:0:0/96`). */
  readonly v4: boolean;
}

const OCTET = /^(?:0|[1-9]\d{0,2})$/;
const GROUP = /^[0-9a-f]{1,4}$/i;

/** IPv4 dotted decimal as 4 bytes; undefined if not one (a leading zero is refused: some tools read it as octal). */
function ipv4(text: string): number[] | undefined {
  const parts = text.split('.');
  if (parts.length !== 4 || !parts.every((p) => OCTET.test(p) && Number(p) <= 255)) return undefined;
  return parts.map(Number);
}

/** IPv6 text (`::` once at most, an IPv4 tail allowed) as 16 bytes; undefined if not one. */
function ipv6(text: string): number[] | undefined {
  const halves = text.split('::');
  if (halves.length > 2) return undefined;
  const groups = (half: string): number[] | undefined => {
    if (half === '') return [];
    const out: number[] = [];
    const items = half.split(':');
    for (let i = 0; i < items.length; i++) {
      const item = items[i]!;
      if (i === items.length - 1 && item.includes('.')) {
        const v4 = ipv4(item);
        if (v4 === undefined) return undefined;
        out.push(v4[0]! * 256 + v4[1]!, v4[2]! * 256 + v4[3]!);
      } else if (GROUP.test(item)) out.push(parseInt(item, 16));
      else return undefined;
    }
    return out;
  };
  const head = groups(halves[0]!);
  const tail = halves.length === 2 ? groups(halves[1]!) : [];
  if (head === undefined || tail === undefined) return undefined;
  // An IPv4 tail only at the very end.
  if (halves.length === 2 && halves[0]!.includes('.')) return undefined;
  const missing = 8 - head.length - tail.length;
  if (halves.length === 1 ? missing !== 0 : missing < 1) return undefined;
  const all = [...head, ...new Array<number>(halves.length === 2 ? missing : 0).fill(0), ...tail];
  return all.flatMap((g) => [g >> 8, g & 0xff]);
}

/** Whether `text` is IPv4 (so its prefix lengths count to 32). */
function isV4(text: string): boolean {
  return !text.includes(':');
}

/**
 * An IPv4 or IPv6 address as 16 bytes (IPv4 mapped), or undefined if `text` is not one.
 * A zone index (`fe80::1%eth0`, as a socket may report a link-local peer) is ignored.
 */
export function parseAddress(text: string): Uint8Array | undefined {
  const bare = text.includes(':') ? text.replace(/%[^%]*$/, '') : text;
  if (isV4(bare)) {
    const v4 = ipv4(bare);
    return v4 && Uint8Array.from([0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff, ...v4]);
  }
  const v6 = ipv6(bare);
  return v6 && Uint8Array.from(v6);
}

/**
 * An exact address (a range of one) or a CIDR range `address/length`, or why `text` is neither.
 * A range whose address has bits set past its prefix (`10.0.0.1/8`) is refused as ambiguous.
 */
export function parseRange(text: string): IpRange | { readonly reason: string } {
  const slash = text.indexOf('/');
  const address = slash < 0 ? text : text.slice(0, slash);
  const v4 = isV4(address);
  if (address.includes('%')) return { reason: 'has a zone index (%...), which a range cannot have' };
  const bytes = parseAddress(address);
  if (bytes === undefined) return { reason: `is not an IP address or CIDR range (${v4 ? 'IPv4 as a.b.c.d, each 0-255 with no leading zero' : 'IPv6 as in RFC 4291'}, optionally /prefix-length)` };
  const max = v4 ? 32 : 128;
  if (slash < 0) return { bytes, prefix: 128, v4: isMapped(bytes) };
  const length = text.slice(slash + 1);
  if (!/^(?:0|[1-9]\d{0,2})$/.test(length) || Number(length) > max) return { reason: `has prefix length "${length}": it must be a whole number from 0 to ${max}` };
  const prefix = Number(length) + (v4 ? 96 : 0);
  const base = masked(bytes, prefix);
  if (!base.every((b, i) => b === bytes[i])) return { reason: `has bits set past its /${length} prefix (the range starts at ${format(base, v4)})` };
  return { bytes: base, prefix, v4: prefix >= 96 && isMapped(base) };
}

/** Whether `address` (16 bytes, as {@link parseAddress} gives) is in `range`. */
export function inRange(address: Uint8Array, range: IpRange): boolean {
  if (isMapped(address) !== range.v4) return false;
  const whole = range.prefix >> 3;
  for (let i = 0; i < whole; i++) if (address[i] !== range.bytes[i]) return false;
  const rest = range.prefix & 7;
  if (rest === 0) return true;
  const mask = (0xff << (8 - rest)) & 0xff;
  return (address[whole]! & mask) === range.bytes[whole];
}

/** Whether 16 bytes are an IPv4-mapped address (`::ffff:a.b.c.d`). */
function isMapped(bytes: Uint8Array): boolean {
  for (let i = 0; i < 10; i++) if (bytes[i] !== 0) return false;
  return bytes[10] === 0xff && bytes[11] === 0xff;
}

function masked(bytes: Uint8Array, prefix: number): Uint8Array {
  return bytes.map((b, i) => {
    const bits = Math.min(8, Math.max(0, prefix - i * 8));
    return b & ((0xff << (8 - bits)) & 0xff);
  });
}

/** For an error message: the address as written back (IPv4 dotted, IPv6 as eight groups). */
function format(bytes: Uint8Array, v4: boolean): string {
  if (v4) return Array.from(bytes.slice(12)).join('.');
  const groups: string[] = [];
  for (let i = 0; i < 16; i += 2) groups.push(((bytes[i]! << 8) | bytes[i + 1]!).toString(16));
  return groups.join(':');
}
