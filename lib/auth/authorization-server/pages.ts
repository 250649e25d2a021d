/**
 * The pages a person sees at the authorization server: sign in, then allow (or deny) a client
 * access to an MCP server. Plain HTML with nothing inline that runs; every value escaped.
 */

const escape = (s: unknown) => String(s).replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

const STYLE = `body{font:15px/1.5 system-ui,sans-serif;max-width:26rem;margin:3rem auto;padding:0 1rem;color:#1b1f24}
h1{font-size:1.3rem}label{display:block;margin:.6rem 0 .2rem}input{width:100%;padding:.4rem;box-sizing:border-box}
button{margin:.9rem .4rem 0 0;padding:.45rem 1rem}.error{color:#b3261e}.muted{color:#57606a}code{background:#f6f8fa;padding:0 .2rem}`;

function page(title: string, body: string): string {
  return `<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escape(title)}</title><style>${STYLE}</style></head><body>${body}</body></html>`;
}

/** The sign-in form; `error` when the last attempt failed. */
export function loginPage(uid: string, client: { name: string }, error?: string): string {
  return page(
    'Sign in',
    `<h1>Sign in</h1><p class="muted">to continue to <b>${escape(client.name)}</b></p>
${error ? `<p class="error" role="alert">${escape(error)}</p>` : ''}
<form method="post" action="/interaction/${escape(uid)}/login" autocomplete="on">
<label for="username">Username</label><input id="username" name="username" autocomplete="username" required autofocus>
<label for="password">Password</label><input id="password" name="password" type="password" autocomplete="current-password" required>
<button type="submit">Sign in</button></form>
<form method="post" action="/interaction/${escape(uid)}/abort"><button type="submit">Cancel</button></form>`,
  );
}

/** Loopback hosts: a redirect there reaches whatever runs on the person's own computer. */
const LOOPBACK = new Set(['localhost', '127.0.0.1', '[::1]']);

/**
 * The consent form: which client, which MCP servers (resources) and scopes, and where the browser
 * is sent back to: its host shown plainly, with a warning when it is this computer (any local
 * program can claim a loopback redirect URI).
 * @see https://modelcontextprotocol.io/specification/2026-07-28/basic/authorization/security-considerations
 */
export function consentPage(uid: string, client: { name: string; id: string }, account: string, resources: Record<string, string[]>, scopes: string[], redirectUri?: string): string {
  const items = Object.entries(resources).map(([uri, s]) => `<li><code>${escape(uri)}</code>${s.length ? ` (${s.map(escape).join(', ')})` : ''}</li>`);
  let back = '';
  if (redirectUri !== undefined) {
    let host = redirectUri;
    try {
      host = new URL(redirectUri).host;
    } catch {
      // shown as given
    }
    const local = LOOPBACK.has(host.replace(/:\d+$/, ''));
    back =
      `<p>You will be sent back to <b id="redirect-host">${escape(host)}</b>.</p>` +
      (local ? '<p class="error" id="local-warning">That is this computer: allow only if you started this application yourself just now.</p>' : '');
  }
  return page(
    'Allow access',
    `<h1>Allow access?</h1><p><b>${escape(client.name)}</b> <span class="muted">(${escape(client.id)})</span> asks to ${account ? `act as <b>${escape(account)}</b>` : 'act for you'} on:</p>
<ul>${items.join('') || '<li>your account</li>'}</ul>${scopes.length ? `<p class="muted">Scopes: ${scopes.map(escape).join(', ')}</p>` : ''}${back}
<form method="post" action="/interaction/${escape(uid)}/confirm"><button type="submit" id="allow">Allow</button></form>
<form method="post" action="/interaction/${escape(uid)}/abort"><button type="submit" id="deny">Deny</button></form>`,
  );
}
