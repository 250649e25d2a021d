// The host rules of MCP Apps that the bridge keeps by itself, on a page made of plain objects (the
// bridge's DOM needs are structural): no partial tool input after the complete one, a display
// mode request answered with the mode in effect and never a switch, a ui/message handed to the
// page with its role, only the last ui/update-model-context kept for the model, and the CSP each
// view is rendered under handed to the page's audit log.
// (The same bridge in a real browser: bridge.spec.ts.)
import { expect } from 'chai';
import { createAppBridge, type AppBridgeOptions, type AppCspRecord, type AppHostHandlers } from '../../lib/apps/bridge.js';
import { appContentSecurityPolicy } from '../../lib/protocol/apps-extension.js';

const PAGE = 'https://host.example';
const SANDBOX = 'https://sandbox.example';
type Json = Record<string, any>;

/** A page with one container, a frame whose messages are kept, and a way for the "sandbox" to post back. */
function page(options: { hostContext?: Json; handlers?: AppHostHandlers; auditCsp?: AppBridgeOptions['auditCsp'] } = {}) {
  const toView: Json[] = [];
  const listeners = new Set<(e: { data: unknown; origin: string; source: unknown }) => void>();
  const contentWindow = { postMessage: (m: Json) => void toView.push(m) };
  const frame = { contentWindow, style: {} as Json, setAttribute: () => undefined, remove: () => undefined, src: '' };
  const win = {
    location: { origin: PAGE },
    addEventListener: (_t: 'message', l: (e: { data: unknown; origin: string; source: unknown }) => void) => void listeners.add(l),
    removeEventListener: (_t: 'message', l: (e: { data: unknown; origin: string; source: unknown }) => void) => void listeners.delete(l),
  };
  const container = { ownerDocument: { createElement: () => frame, defaultView: win }, appendChild: () => undefined };
  const bridge = createAppBridge({
    container,
    sandboxUrl: `${SANDBOX}/proxy.html`,
    server: { callTool: async () => ({ content: [] }), readResource: async () => ({ contents: [] }), tools: () => [] },
    hostInfo: { name: 'spec-host', version: '1' },
    ...(options.hostContext && { hostContext: options.hostContext }),
    ...(options.handlers && { handlers: options.handlers }),
    ...(options.auditCsp && { auditCsp: options.auditCsp }),
  } as unknown as AppBridgeOptions);
  const fromView = (m: Json) => {
    for (const l of [...listeners]) l({ data: m, origin: SANDBOX, source: contentWindow });
  };
  const tick = async () => {
    for (let i = 0; i < 5; i++) await new Promise((r) => setImmediate(r));
  };
  let id = 0;
  const request = async (method: string, params: Json = {}) => {
    const mine = `v${++id}`;
    fromView({ jsonrpc: '2.0', id: mine, method, params });
    await tick();
    return toView.find((m) => m.id === mine) as Json;
  };
  /** Show a tool call's app and bring the view up to ready. */
  const start = async (appCapabilities: Json = {}) => {
    bridge.show({ html: '<p>view</p>', tool: { name: 'weather' }, toolInput: { city: 'Oslo' } });
    fromView({ jsonrpc: '2.0', method: 'ui/notifications/sandbox-proxy-ready', params: {} });
    const init = await request('ui/initialize', { protocolVersion: '2026-01-26', appInfo: { name: 'v', version: '1' }, appCapabilities });
    fromView({ jsonrpc: '2.0', method: 'ui/notifications/initialized', params: {} });
    await tick();
    return init;
  };
  return { bridge, toView, request, start, tick, fromView };
}

describe('MCP Apps: host rules the bridge keeps', () => {
  it('[APPS-042] sends the complete tool input once and no partial input after it', async () => {
    const p = page();
    await p.start();
    p.bridge.toolResult({ content: [{ type: 'text', text: 'sunny' }] });
    await p.tick();
    const methods = p.toView.map((m) => m.method).filter(Boolean);
    expect(methods.filter((m) => m === 'ui/notifications/tool-input')).to.have.length(1);
    const after = methods.slice(methods.indexOf('ui/notifications/tool-input'));
    expect(after).to.not.include('ui/notifications/tool-input-partial');
    expect(p.toView.find((m) => m.method === 'ui/notifications/tool-input')!.params).to.deep.equal({ arguments: { city: 'Oslo' } });
  });

  it('[APPS-034] [APPS-035] [APPS-036] a display mode request is answered with the mode in effect; the view is never switched to another', async () => {
    const inline = page();
    const init = await inline.start({ availableDisplayModes: ['inline'] });
    expect(init.result.hostContext).to.deep.include({ displayMode: 'inline', availableDisplayModes: ['inline'] });
    for (const mode of ['fullscreen', 'pip', 'inline']) expect((await inline.request('ui/request-display-mode', { mode })).result, mode).to.deep.equal({ mode: 'inline' });
    expect(inline.toView.filter((m) => m.method === 'ui/notifications/host-context-changed')).to.deep.equal([]);
    // A page that shows its views fullscreen says so in hostContext: that is the mode in effect.
    const full = page({ hostContext: { displayMode: 'fullscreen', availableDisplayModes: ['fullscreen'] } });
    await full.start({ availableDisplayModes: ['inline', 'fullscreen'] });
    expect((await full.request('ui/request-display-mode', { mode: 'inline' })).result).to.deep.equal({ mode: 'fullscreen' });
  });

  it('[APPS-038] [APPS-040] a ui/message reaches the page with the role the view gave; of several model-context updates the last is the one kept', async () => {
    const messages: Json[] = [];
    const updates: Json[] = [];
    const p = page({ handlers: { message: (m) => void messages.push(m), updateModelContext: (u) => void updates.push(u) } });
    await p.start();
    const content = { type: 'text', text: 'Book the 9:40 train' };
    expect((await p.request('ui/message', { role: 'user', content })).result).to.deep.equal({});
    expect(messages).to.deep.equal([{ role: 'user', content }]);
    await p.request('ui/update-model-context', { structuredContent: { selected: 'train-1' } });
    await p.request('ui/update-model-context', { structuredContent: { selected: 'train-2' } });
    expect(p.bridge.modelContext).to.deep.equal({ structuredContent: { selected: 'train-2' } });
    expect(updates).to.have.length(2);
  });

  it('[APPS-008] logs the CSP a view is rendered under for security review: declared, applied, dropped origins and permissions, nothing of the view or the call', async () => {
    const records: AppCspRecord[] = [];
    const p = page({ auditCsp: (r) => void records.push(r) });
    const csp = { connectDomains: ['https://api.weather.example', 'javascript:alert(1)'], resourceDomains: ['https://cdn.weather.example'] };
    const tool = { name: 'weather', _meta: { ui: { resourceUri: 'ui://weather/dashboard' } } };
    p.bridge.show({ html: '<!DOCTYPE html><p>secret view</p>', meta: { csp, permissions: { geolocation: {} } }, tool, toolInput: { city: 'Oslo', token: 'tok-123' } });
    expect(records).to.have.length(1);
    const r = records[0]!;
    expect(r).to.deep.equal({
      tool: 'weather',
      resourceUri: 'ui://weather/dashboard',
      declared: csp,
      policy: appContentSecurityPolicy(csp),
      dropped: ['javascript:alert(1)'],
      permissions: { geolocation: {} },
    });
    expect(r.policy).to.include('connect-src https://api.weather.example;').and.not.include('javascript:');
    // What the sandbox was told to apply is what the record says was applied.
    expect(p.toView).to.deep.equal([]);
    p.fromView({ jsonrpc: '2.0', method: 'ui/notifications/sandbox-proxy-ready', params: {} });
    await p.tick();
    const sent = p.toView.find((m) => m.method === 'ui/notifications/sandbox-resource-ready')!;
    expect(appContentSecurityPolicy(sent.params.csp)).to.equal(r.policy);
    expect(JSON.stringify(records)).to.not.include('secret view').and.not.include('tok-123');
    expect(p.bridge.cspRecord).to.equal(r);
  });

  it('[APPS-008] a view with no declared CSP is logged under the restrictive default; a throwing logger does not stop the view', async () => {
    const p = page({
      auditCsp: () => {
        throw new Error('log sink down');
      },
    });
    await p.start();
    expect(p.bridge.cspRecord).to.deep.include({ tool: 'weather', declared: undefined, dropped: [], policy: appContentSecurityPolicy(undefined) });
    expect(p.bridge.cspRecord!.policy).to.include("default-src 'none'").and.include("connect-src 'none'");
    expect(p.bridge.state).to.equal('ready');
    expect(p.bridge.errors.map((e) => e.message)).to.deep.equal(['auditCsp threw: log sink down']);
  });
});
