// A hibernated session stands in the operating snapshot without the handshake's transitions: it
// must be the one the session machine reaches through them.
import { expect } from 'chai';
import { initialTransition, transition } from 'xstate';
import { sessionMachine } from '../../machines/session.machine.js';
import { operatingSnapshot } from '../../lib/session/operating-snapshot.js';

describe('session/operating-snapshot: the operating snapshot without transitions', () => {
  it('equals the snapshot TRANSPORT_OPEN, INITIALIZE_REQUEST and INITIALIZED lead to', () => {
    const input = { role: 'server' as const, supportedVersions: ['2025-11-25'], localInfo: { name: 's', version: '1' }, localCapabilities: { tools: { listChanged: true } }, instructions: 'hi' };
    const negotiated = { revision: '2025-11-25', clientCapabilities: { sampling: {} }, clientInfo: { name: 'c', version: '2' } };
    let snap = initialTransition(sessionMachine, input)[0];
    snap = transition(sessionMachine, snap, { type: 'TRANSPORT_OPEN' })[0];
    snap = transition(sessionMachine, snap, { type: 'INITIALIZE_REQUEST', params: { protocolVersion: negotiated.revision, capabilities: negotiated.clientCapabilities, clientInfo: negotiated.clientInfo } })[0];
    snap = transition(sessionMachine, snap, { type: 'INITIALIZED' })[0];
    const fast = operatingSnapshot(input, negotiated);
    expect(fast.value).to.equal('operating');
    expect(fast.value).to.equal(snap.value);
    expect(fast.status).to.equal(snap.status);
    expect(fast.context).to.deep.equal(snap.context);
  });
});
