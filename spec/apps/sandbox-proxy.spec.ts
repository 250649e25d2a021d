// The sandbox proxy page's script (lib/apps/sandbox-proxy.ts), run as shipped in a node vm on a page
// of plain objects: the inner frame gets the `allow` list its declared permissions name (APPS-023),
// and the proxy only relays: every message it posts is either its own ready notification or one it
// was given, unchanged, so it never makes up a request of its own (APPS-026).
import { expect } from 'chai';
import { runInNewContext } from 'node:vm';
import { sandboxProxyHtml } from '../../lib/apps/sandbox-proxy.js';

const HOST = 'https://host.example';
type Json = Record<string, any>;

function proxyPage() {
  const toHost: Json[] = [];
  const toView: Json[] = [];
  const listeners: ((e: { data: unknown; origin: string; source: unknown }) => void)[] = [];
  const parent = { postMessage: (m: Json, origin: string) => void toHost.push({ m, origin }) };
  const frames: Json[] = [];
  const document = {
    createElement: () => {
      const attributes: Record<string, string> = {};
      const frame = { attributes, style: {}, srcdoc: '', contentWindow: { postMessage: (m: Json) => void toView.push(m) }, setAttribute: (k: string, v: string) => void (attributes[k] = v), remove: () => undefined };
      frames.push(frame);
      return frame;
    },
    body: { appendChild: () => undefined },
  };
  const window = { parent, addEventListener: (_t: string, l: (typeof listeners)[number]) => void listeners.push(l) };
  const script = /<script>([\s\S]*)<\/script>/.exec(sandboxProxyHtml(HOST))![1]!;
  runInNewContext(script, { window, document });
  const fromHost = (m: unknown) => listeners.forEach((l) => l({ data: m, origin: HOST, source: parent }));
  const fromView = (m: unknown) => listeners.forEach((l) => l({ data: m, origin: 'null', source: frames.at(-1)?.contentWindow }));
  return { toHost, toView, frames, fromHost, fromView };
}

describe('MCP Apps: the sandbox proxy page', () => {
  it('[APPS-023] gives the view\'s frame the allow list of the permissions the resource declares, and none without', () => {
    const p = proxyPage();
    p.fromHost({ jsonrpc: '2.0', method: 'ui/notifications/sandbox-resource-ready', params: { html: '<p>v</p>', permissions: { camera: {}, geolocation: {} } } });
    expect(p.frames.at(-1)!.attributes.allow).to.equal('camera; geolocation');
    expect(p.frames.at(-1)!.attributes.sandbox).to.not.contain('allow-same-origin');
    p.fromHost({ jsonrpc: '2.0', method: 'ui/notifications/sandbox-resource-ready', params: { html: '<p>v</p>' } });
    expect(p.frames.at(-1)!.attributes).to.not.have.property('allow');
  });

  it('[APPS-026] makes no request of its own: it posts its ready notification, then only what the host or the view gave it, unchanged', () => {
    const p = proxyPage();
    expect(p.toHost).to.deep.equal([{ m: { jsonrpc: '2.0', method: 'ui/notifications/sandbox-proxy-ready', params: {} }, origin: HOST }]);
    p.fromHost({ jsonrpc: '2.0', method: 'ui/notifications/sandbox-resource-ready', params: { html: '<p>v</p>' } });
    const fromViewSide = [
      { jsonrpc: '2.0', id: 1, method: 'ui/initialize', params: { appCapabilities: {} } },
      { jsonrpc: '2.0', method: 'ui/notifications/initialized', params: {} },
      { jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'refresh', arguments: {} } },
      { jsonrpc: '2.0', method: 'ui/notifications/sandbox-proxy-ready', params: {} },
    ];
    const fromHostSide = [
      { jsonrpc: '2.0', id: 1, result: { protocolVersion: '2026-01-26' } },
      { jsonrpc: '2.0', id: 7, method: 'ui/resource-teardown', params: { reason: 'done' } },
      { jsonrpc: '2.0', method: 'ui/notifications/sandbox-resource-ready', params: { html: '<p>again</p>' } },
    ];
    fromViewSide.forEach((m) => p.fromView(m));
    fromHostSide.slice(0, 2).forEach((m) => p.fromHost(m));
    // To the host: the ready notification, then the view's first three as they were (a sandbox- method from the view is dropped).
    expect(p.toHost.map((x) => x.m)).to.deep.equal([p.toHost[0]!.m, ...fromViewSide.slice(0, 3)]);
    expect(p.toHost.every((x) => x.origin === HOST)).to.equal(true);
    // To the view: the host's two, as they were.
    expect(p.toView).to.deep.equal(fromHostSide.slice(0, 2));
  });
});
