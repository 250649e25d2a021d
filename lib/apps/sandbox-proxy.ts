/**
 * The sandbox proxy page of an MCP Apps web host: served from an origin other than the host's,
 * loaded in an iframe with `allow-scripts allow-same-origin`. It tells the host it is ready
 * (`ui/notifications/sandbox-proxy-ready`), loads the view's HTML it is sent
 * (`ui/notifications/sandbox-resource-ready`) into an inner iframe, sandboxed without
 * `allow-same-origin` and under the CSP built from the resource's `csp` (a `<meta>` first in the
 * document's head), and forwards every other message between the host and the view. It creates
 * no request of its own.
 *
 * @see https://modelcontextprotocol.io/extensions/apps
 */
import { appContentSecurityPolicy } from '../protocol/apps-extension.js';

/**
 * The proxy page. `hostOrigin` is the only origin it talks to (messages from elsewhere are
 * dropped, and it posts only there).
 */
export function sandboxProxyHtml(hostOrigin: string): string {
  const script = `
(function () {
  'use strict';
  var HOST = ${JSON.stringify(hostOrigin)};
  // The policy builder is the library's own function, as compiled; some compilers wrap inner
  // functions in a naming helper, which is a no-op here.
  var __name = function (f) { return f; };
  var policyFor = ${appContentSecurityPolicy.toString()};
  var inner = null;
  var PERMISSIONS = { camera: 'camera', microphone: 'microphone', geolocation: 'geolocation', clipboardWrite: 'clipboard-write' };
  function isSandboxMethod(m) { return m !== null && typeof m === 'object' && typeof m.method === 'string' && m.method.indexOf('ui/notifications/sandbox-') === 0; }
  // The CSP goes first in <head>, before anything of the view's can run.
  function withPolicy(html, policy) {
    var meta = '<meta http-equiv="Content-Security-Policy" content="' + policy.replace(/"/g, '&quot;') + '">';
    var head = /<head(\\s[^>]*)?>/i.exec(html);
    if (head) return html.slice(0, head.index + head[0].length) + meta + html.slice(head.index + head[0].length);
    var root = /<html(\\s[^>]*)?>/i.exec(html);
    if (root) return html.slice(0, root.index + root[0].length) + '<head>' + meta + '</head>' + html.slice(root.index + root[0].length);
    return '<!DOCTYPE html><html><head>' + meta + '</head><body></body></html>';
  }
  function load(params) {
    if (inner) inner.remove();
    inner = document.createElement('iframe');
    // The view gets an opaque origin: it reaches nothing of the proxy's or the host's.
    inner.setAttribute('sandbox', typeof params.sandbox === 'string' && params.sandbox.indexOf('allow-same-origin') < 0 ? params.sandbox : 'allow-scripts allow-forms');
    var allow = [];
    var p = params.permissions || {};
    for (var k in PERMISSIONS) if (p[k]) allow.push(PERMISSIONS[k]);
    if (allow.length) inner.setAttribute('allow', allow.join('; '));
    inner.setAttribute('title', 'MCP App view');
    inner.style.cssText = 'border:0;width:100%;height:100%;display:block';
    inner.srcdoc = withPolicy(String(params.html || ''), policyFor(params.csp));
    document.body.appendChild(inner);
  }
  window.addEventListener('message', function (event) {
    var m = event.data;
    if (event.source === window.parent && event.origin === HOST) {
      if (isSandboxMethod(m)) {
        if (m.method === 'ui/notifications/sandbox-resource-ready' && m.params) load(m.params);
        return;
      }
      if (inner && inner.contentWindow) inner.contentWindow.postMessage(m, '*');
    } else if (inner && event.source === inner.contentWindow) {
      if (isSandboxMethod(m)) return;
      window.parent.postMessage(m, HOST);
    }
  });
  window.parent.postMessage({ jsonrpc: '2.0', method: 'ui/notifications/sandbox-proxy-ready', params: {} }, HOST);
})();
`;
  return `<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><title>MCP App sandbox</title>
<style>html,body{margin:0;padding:0;height:100%;overflow:hidden;background:transparent}</style></head>
<body><script>${script}</script></body></html>
`;
}

/** The headers to serve the proxy page with: its own scripts only, framed by the host only. */
export function sandboxProxyHeaders(hostOrigin: string): Record<string, string> {
  return {
    'content-type': 'text/html; charset=utf-8',
    'cache-control': 'no-store',
    // Only who may frame it: a CSP here would also bind the view's srcdoc document (inherited),
    // narrowing what its own declared policy allows.
    'content-security-policy': `frame-ancestors ${hostOrigin}`,
    'x-content-type-options': 'nosniff',
  };
}
