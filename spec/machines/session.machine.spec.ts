import { expect } from 'chai';
import sinon from 'sinon';
import { createActor } from 'xstate';
import { sessionMachine, type SessionContext, type SessionInput, type SessionRole } from '../../machines/session.machine.js';

const LATEST = '2025-11-25';
const OLDER = '2025-06-18';
const SUPPORTED = [LATEST, OLDER];

/** Runs the session machine alone, with every effect a spy that records the context it saw. */
function start(role: SessionRole, extra: Partial<SessionInput> = {}) {
  const seen: { action: string; protocolVersion: string | undefined }[] = [];
  const spy = (action: string) =>
    sinon.spy(({ context }: { context: SessionContext }) => {
      seen.push({ action, protocolVersion: context.protocolVersion });
    });
  const io = {
    sendInitialize: spy('sendInitialize'),
    sendInitialized: spy('sendInitialized'),
    answerInitialize: spy('answerInitialize'),
    closeTransport: spy('closeTransport'),
    releaseAll: spy('releaseAll'),
  };
  const input: SessionInput = {
    role,
    supportedVersions: SUPPORTED,
    localInfo: { name: `test-${role}`, version: '1.0.0' },
    localCapabilities: role === 'client' ? { roots: {} } : { tools: {} },
    ...extra,
  };
  const actor = createActor(sessionMachine.provide({ actions: io }), { input });
  actor.start();
  return { io, seen, actor, snap: () => actor.getSnapshot() };
}

const serverInfo = { name: 'srv', version: '2.0.0', title: 'Server' };
const clientInfo = { name: 'cli', version: '3.0.0' };

describe('sessionMachine', () => {
  describe('client', () => {
    it('connecting → TRANSPORT_OPEN → initializing, sending initialize', () => {
      const { io, actor, snap } = start('client');
      expect(snap().value).to.equal('connecting');
      expect(io.sendInitialize.called).to.equal(false);
      actor.send({ type: 'TRANSPORT_OPEN' });
      expect(snap().value).to.equal('initializing');
      expect(io.sendInitialize.calledOnce).to.equal(true);
      expect(io.answerInitialize.called).to.equal(false);
    });

    it('a result with a version it speaks → operating, stores version, capabilities, info; then sends initialized', () => {
      const { io, seen, actor, snap } = start('client');
      actor.send({ type: 'TRANSPORT_OPEN' });
      actor.send({
        type: 'INITIALIZE_RESULT',
        result: { protocolVersion: OLDER, capabilities: { tools: { listChanged: true } }, serverInfo, instructions: 'be nice' },
      });
      const s = snap();
      expect(s.value).to.equal('operating');
      expect(s.status).to.equal('active');
      expect(s.context.protocolVersion).to.equal(OLDER);
      expect(s.context.peerCapabilities).to.deep.equal({ tools: { listChanged: true } });
      expect(s.context.peerInfo).to.deep.equal(serverInfo);
      expect(s.context.instructions).to.equal('be nice');
      expect(s.context.error).to.equal(undefined);
      expect(io.sendInitialized.calledOnce).to.equal(true);
      // sendInitialized runs after the result is stored.
      expect(seen.find((x) => x.action === 'sendInitialized')?.protocolVersion).to.equal(OLDER);
      expect(io.closeTransport.called).to.equal(false);
      expect(io.releaseAll.called).to.equal(false);
    });

    it('a result with a version it does not speak → failed, the error naming both sides\' versions', () => {
      const { io, actor, snap } = start('client');
      actor.send({ type: 'TRANSPORT_OPEN' });
      actor.send({ type: 'INITIALIZE_RESULT', result: { protocolVersion: '2024-11-05', capabilities: {}, serverInfo } });
      const s = snap();
      expect(s.value).to.equal('failed');
      expect(s.status).to.equal('done');
      expect(s.context.protocolVersion).to.equal(undefined);
      expect(s.context.error?.name).to.equal('VersionMismatchError');
      expect(s.context.error?.message).to.include(LATEST).and.include(OLDER).and.include('2024-11-05');
      expect(s.context.error?.data).to.deep.equal({ supported: SUPPORTED, answered: '2024-11-05' });
      expect(io.sendInitialized.called).to.equal(false);
      expect(io.releaseAll.calledOnce).to.equal(true);
      expect(io.closeTransport.calledOnce).to.equal(true);
    });

    it('INITIALIZE_FAILED → failed with the error recorded', () => {
      const { io, actor, snap } = start('client');
      actor.send({ type: 'TRANSPORT_OPEN' });
      const error = { name: 'McpError', message: 'Invalid params', data: { code: -32602 } };
      actor.send({ type: 'INITIALIZE_FAILED', error });
      expect(snap().value).to.equal('failed');
      expect(snap().context.error).to.deep.equal(error);
      expect(io.releaseAll.calledOnce).to.equal(true);
    });
  });

  describe('server', () => {
    it('connecting → TRANSPORT_OPEN → awaitingInitialize, sending nothing', () => {
      const { io, actor, snap } = start('server');
      actor.send({ type: 'TRANSPORT_OPEN' });
      expect(snap().value).to.equal('awaitingInitialize');
      expect(io.sendInitialize.called).to.equal(false);
      expect(io.answerInitialize.called).to.equal(false);
    });

    it('INITIALIZE_REQUEST with a version it speaks: answers with that version, after negotiating it', () => {
      const { io, seen, actor, snap } = start('server');
      actor.send({ type: 'TRANSPORT_OPEN' });
      actor.send({ type: 'INITIALIZE_REQUEST', params: { protocolVersion: OLDER, capabilities: { sampling: {} }, clientInfo } });
      const s = snap();
      expect(s.value).to.equal('awaitingInitialized');
      expect(s.context.protocolVersion).to.equal(OLDER);
      expect(s.context.requestedVersion).to.equal(OLDER);
      expect(s.context.peerCapabilities).to.deep.equal({ sampling: {} });
      expect(s.context.peerInfo).to.deep.equal(clientInfo);
      expect(io.answerInitialize.calledOnce).to.equal(true);
      expect(seen).to.deep.equal([{ action: 'answerInitialize', protocolVersion: OLDER }]);
      const arg = io.answerInitialize.firstCall.args[0] as unknown as { event: { type: string } };
      expect(arg.event.type).to.equal('INITIALIZE_REQUEST');
    });

    it('INITIALIZE_REQUEST with a version it does not know: answers with its latest', () => {
      const { seen, actor, snap } = start('server');
      actor.send({ type: 'TRANSPORT_OPEN' });
      actor.send({ type: 'INITIALIZE_REQUEST', params: { protocolVersion: '2099-01-01', capabilities: {}, clientInfo } });
      expect(snap().value).to.equal('awaitingInitialized');
      expect(snap().context.protocolVersion).to.equal(LATEST);
      expect(snap().context.requestedVersion).to.equal('2099-01-01');
      expect(seen).to.deep.equal([{ action: 'answerInitialize', protocolVersion: LATEST }]);
    });

    it('INITIALIZED → operating', () => {
      const { io, actor, snap } = start('server');
      actor.send({ type: 'TRANSPORT_OPEN' });
      actor.send({ type: 'INITIALIZE_REQUEST', params: { protocolVersion: LATEST, capabilities: {}, clientInfo } });
      actor.send({ type: 'INITIALIZED' });
      expect(snap().value).to.equal('operating');
      expect(snap().context.protocolVersion).to.equal(LATEST);
      expect(io.sendInitialized.called).to.equal(false);
    });
  });

  describe('closing (either role)', () => {
    function operating(role: SessionRole) {
      const r = start(role);
      r.actor.send({ type: 'TRANSPORT_OPEN' });
      if (role === 'client') {
        r.actor.send({ type: 'INITIALIZE_RESULT', result: { protocolVersion: LATEST, capabilities: {}, serverInfo } });
      } else {
        r.actor.send({ type: 'INITIALIZE_REQUEST', params: { protocolVersion: LATEST, capabilities: {}, clientInfo } });
        r.actor.send({ type: 'INITIALIZED' });
      }
      expect(r.snap().value).to.equal('operating');
      return r;
    }

    for (const role of ['client', 'server'] as const) {
      it(`${role}: CLOSE → closing (closeTransport) → TRANSPORT_CLOSED → closed (releaseAll)`, () => {
        const { io, actor, snap } = operating(role);
        actor.send({ type: 'CLOSE' });
        expect(snap().value).to.equal('closing');
        expect(io.closeTransport.calledOnce).to.equal(true);
        expect(io.releaseAll.called).to.equal(false);
        actor.send({ type: 'CLOSE' });
        expect(snap().value).to.equal('closing');
        expect(io.closeTransport.calledOnce, 'a second CLOSE does not close again').to.equal(true);
        actor.send({ type: 'TRANSPORT_CLOSED' });
        expect(snap().value).to.equal('closed');
        expect(snap().status).to.equal('done');
        expect(io.releaseAll.calledOnce).to.equal(true);
        expect(io.releaseAll.calledAfter(io.closeTransport)).to.equal(true);
        expect(snap().context.error).to.equal(undefined);
      });

      it(`${role}: TRANSPORT_CLOSED with an error → failed (releaseAll, error recorded)`, () => {
        const { io, actor, snap } = operating(role);
        const error = { name: 'TransportError', message: 'process exited with code 1', data: { code: 1 } };
        actor.send({ type: 'TRANSPORT_CLOSED', error });
        expect(snap().value).to.equal('failed');
        expect(snap().status).to.equal('done');
        expect(snap().context.error).to.deep.equal(error);
        expect(io.releaseAll.calledOnce).to.equal(true);
        expect(io.closeTransport.calledOnce).to.equal(true);
      });

      it(`${role}: TRANSPORT_CLOSED without an error → closed (releaseAll)`, () => {
        const { io, actor, snap } = operating(role);
        actor.send({ type: 'TRANSPORT_CLOSED' });
        expect(snap().value).to.equal('closed');
        expect(io.releaseAll.calledOnce).to.equal(true);
        expect(io.closeTransport.called).to.equal(false);
      });
    }

    it('CLOSE before the transport opened → closing', () => {
      const { io, actor, snap } = start('client');
      actor.send({ type: 'CLOSE' });
      expect(snap().value).to.equal('closing');
      expect(io.closeTransport.calledOnce).to.equal(true);
      expect(io.sendInitialize.called).to.equal(false);
    });

    it('TRANSPORT_CLOSED while initializing → failed or closed, releasing everything', () => {
      const a = start('client');
      a.actor.send({ type: 'TRANSPORT_OPEN' });
      a.actor.send({ type: 'TRANSPORT_CLOSED', error: { name: 'TransportError', message: 'EPIPE' } });
      expect(a.snap().value).to.equal('failed');
      expect(a.io.releaseAll.calledOnce).to.equal(true);
      const b = start('server');
      b.actor.send({ type: 'TRANSPORT_OPEN' });
      b.actor.send({ type: 'TRANSPORT_CLOSED' });
      expect(b.snap().value).to.equal('closed');
      expect(b.io.releaseAll.calledOnce).to.equal(true);
    });

    it('a transport error after CLOSE still ends in closed: the close was asked for (closing handles TRANSPORT_CLOSED itself)', () => {
      const { actor, snap } = operating('client');
      actor.send({ type: 'CLOSE' });
      actor.send({ type: 'TRANSPORT_CLOSED', error: { name: 'TransportError', message: 'killed' } });
      expect(snap().value).to.equal('closed');
      expect(snap().context.error).to.equal(undefined);
    });
  });
});
