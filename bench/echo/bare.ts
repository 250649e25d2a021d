/** The bare JSON-RPC echo (no MCP): what the ceiling rows do per call. */

/** The request frame of call `id`. */
export function bareRequest(id: number, params: unknown): string {
  return JSON.stringify({ jsonrpc: '2.0', id, method: 'tools/call', params });
}

/** The bare server's whole job: parse, answer, stringify. */
export function bareAnswer(line: string): string {
  const msg = JSON.parse(line) as { id: number; params: { arguments: { text: string } } };
  return JSON.stringify({ jsonrpc: '2.0', id: msg.id, result: { content: [{ type: 'text', text: msg.params.arguments.text }] } });
}

/**
 * Feeds chunks of NDJSON text, calling `onLine` per complete line. Returns the chunk handler.
 */
export function lineSplitter(onLine: (line: string) => void): (chunk: string) => void {
  let rest = '';
  return (chunk) => {
    let start = 0;
    let nl = chunk.indexOf('\n');
    if (nl < 0) {
      rest += chunk;
      return;
    }
    if (rest !== '') {
      onLine(rest + chunk.slice(0, nl));
      rest = '';
      start = nl + 1;
      nl = chunk.indexOf('\n', start);
    }
    while (nl >= 0) {
      onLine(chunk.slice(start, nl));
      start = nl + 1;
      nl = chunk.indexOf('\n', start);
    }
    rest = chunk.slice(start);
  };
}

/**
 * A line server on this process's stdin and stdout: `answer` gives each line's answer (or nothing),
 * and the answers to one input chunk go out in one write. Ends the process when stdin ends.
 */
export function serveLines(answer: (line: string) => string | undefined): void {
  let out = '';
  const split = lineSplitter((line) => {
    const text = answer(line);
    if (text !== undefined) out += text + '\n';
  });
  process.stdin.setEncoding('utf8');
  process.stdin.on('data', (chunk: string) => {
    split(chunk);
    if (out !== '') {
      process.stdout.write(out);
      out = '';
    }
  });
  process.stdin.on('end', () => process.exit(0));
}
