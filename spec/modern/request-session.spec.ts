// The request-scoped session skips the handshake's transitions: the operating snapshot it takes
// must be the one the session machine reaches through them, with the request's envelope.
import { expect } from 'chai';
import { initialTransition, transition } from 'xstate';
import { sessionMachine } from '../../machines/session.machine.js';
import { operatingSnapshot } from '../../lib/session/session.js';

describe('modern/request-session: the operating snapshot without transitions', () => {
  it('equals the snapshot TRANSPORT_OPEN, INITIALIZE_REQUEST and INITIALIZED lead to', () => {
    const input = { role: 'server' as const, supportedVersions: ['2026-07-28'], localInfo: { name: 's', version: '1' }, localCapabilities: { tools: { listChanged: true } }, instructions: 'hi' };
    const scope = { revision: '2026-07-28', clientCapabilities: { sampling: {} }, clientInfo: { name: 'c', version: '2' } };
    let snap = initialTransition(sessionMachine, input)[0];
    snap = transition(sessionMachine, snap, { type: 'TRANSPORT_OPEN' })[0];
    snap = transition(sessionMachine, snap, { type: 'INITIALIZE_REQUEST', params: { protocolVersion: scope.revision, capabilities: scope.clientCapabilities, clientInfo: scope.clientInfo } })[0];
    snap = transition(sessionMachine, snap, { type: 'INITIALIZED' })[0];
    const fast = operatingSnapshot(input, scope);
    expect(fast.value).to.equal('operating');
    expect(fast.value).to.equal(snap.value);
    expect(fast.status).to.equal(snap.status);
    expect(fast.context).to.deep.equal(snap.context);
  });
});
