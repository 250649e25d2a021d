import { expect } from 'chai';
import { Client } from '../../lib/entries/client.js';
import { replay, UnreplayableJournalError } from '../../lib/journal/replay.js';
import { Server } from '../../lib/server.js';
import { createMemoryPair } from '../../streams/memory.js';
import { CLIENT_INFO, SERVER_INFO } from '../helpers/raw-peer.js';

describe('replay of a 2026-07-28 client journal (issue 26)', () => {
  it('says why it cannot replay a request-era client journal instead of a silent mismatch against undefined', async () => {
    const [a, b] = createMemoryPair();
    await new Server({ info: SERVER_INFO }).connect(a);
    const client = new Client({ era: 'modern', info: CLIENT_INFO, journal: true });
    await client.connect(b);
    await client.close();
    expect(client.journal!.revision).to.equal('2026-07-28');
    const text = client.journal!.toJSONL();
    let err: unknown;
    await replay(text).catch((e: unknown) => (err = e));
    expect(err).to.be.instanceOf(UnreplayableJournalError);
    expect((err as Error).message).to.match(/2026-07-28 request era/);
  });
});
