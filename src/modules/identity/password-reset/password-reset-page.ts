/**
 * The page a reset mail links to when no PUBLIC_WEB_URL is set: a form for the new password that
 * posts `{token, password}` to the realm's reset route and says how it went. One static script
 * and one style, allowed by their hashes in the page's Content-Security-Policy (no inline code
 * otherwise, nothing from another origin). The token comes in the fragment (`#token=`): browsers
 * never send a fragment (RFC 3986, section 3.5), so it reaches no server log; `?token=` is read too
 * (a PUBLIC_WEB_URL pointing here). The script takes it off the address bar at once.
 */
import { createHash } from 'node:crypto';
import type { FastifyInstance } from 'fastify';

const SCRIPT = `
(function () {
  var form = document.getElementById('reset');
  var status = document.getElementById('status');
  function say(text, ok) {
    status.textContent = text;
    status.className = ok ? 'ok' : 'error';
  }
  var token =
    new URLSearchParams(location.hash.slice(1)).get('token') ||
    new URLSearchParams(location.search).get('token');
  if (location.hash || location.search) history.replaceState(null, '', location.pathname);
  if (!token) {
    form.hidden = true;
    say('This link holds no reset token. Ask for a new reset mail.', false);
    return;
  }
  form.addEventListener('submit', function (event) {
    event.preventDefault();
    var button = form.querySelector('button');
    button.disabled = true;
    say('Changing your password\\u2026', true);
    fetch(form.getAttribute('action'), {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      credentials: 'omit',
      body: JSON.stringify({ token: token, password: form.elements.password.value }),
    })
      .then(function (res) {
        return res.json().then(
          function (body) { return { res: res, body: body }; },
          function () { return { res: res, body: null }; }
        );
      })
      .then(function (answer) {
        button.disabled = false;
        if (answer.res.ok) {
          form.hidden = true;
          say('Your password has been changed. You can now sign in with it.', true);
          return;
        }
        var detail = answer.body && answer.body.detail;
        if (typeof detail === 'string') say(detail, false);
        else if (Array.isArray(detail) && detail[0] && detail[0].msg) say('Password: ' + detail[0].msg, false);
        else say('The password could not be changed (HTTP ' + answer.res.status + ').', false);
      })
      .catch(function () {
        button.disabled = false;
        say('The server could not be reached. Try again.', false);
      });
  });
})();
`;

const STYLE = `
body { font: 16px/1.5 system-ui, sans-serif; margin: 0; padding: 2rem 1rem; color: #1a1a1a; }
main { max-width: 26rem; margin: 0 auto; }
label { display: block; font-weight: 600; margin-bottom: .25rem; }
input { width: 100%; box-sizing: border-box; padding: .5rem; font: inherit; border: 1px solid #555; }
button { margin-top: 1rem; padding: .5rem 1rem; font: inherit; }
:focus-visible { outline: 3px solid #1a56db; outline-offset: 2px; }
.hint { color: #444; margin: .25rem 0 0; }
.error { color: #a00; }
.ok { color: #05620c; }
`;

const hashOf = (text: string): string => `'sha256-${createHash('sha256').update(text).digest('base64')}'`;

/** Nothing but the page itself, its script and style (by hash) and its POST to this origin. */
const CSP = [
  "default-src 'none'",
  `script-src ${hashOf(SCRIPT)}`,
  `style-src ${hashOf(STYLE)}`,
  "connect-src 'self'",
  "form-action 'self'",
  "base-uri 'none'",
  "frame-ancestors 'none'",
].join('; ');

const escapeHtml = (text: string): string => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

function pageHtml(action: string): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="no-referrer">
<title>Choose a new password</title>
<style>${STYLE}</style>
</head>
<body>
<main>
<h1>Choose a new password</h1>
<form id="reset" action="${escapeHtml(action)}" method="post">
<label for="password">New password</label>
<input id="password" name="password" type="password" autocomplete="new-password" required minlength="8" maxlength="128" aria-describedby="password-hint">
<p id="password-hint" class="hint">At least 8 characters.</p>
<button type="submit">Change password</button>
</form>
<p id="status" role="status" aria-live="polite"></p>
</main>
<script>${SCRIPT}</script>
</body>
</html>
`;
}

/** An organization's slug as the organizations module makes them (anything else: no page). */
const ORG_SLUG = '^[a-z0-9](?:[a-z0-9-]{0,62}[a-z0-9])?$';

/**
 * GET /reset-password (main site and staff, who reset on the main site) and
 * GET /orgs/{org_slug}/reset-password (a storefront's customers): the pages the links of
 * `resetLinks` open, posting to /api/v1/auth/reset-password and the organization's
 * /api/v1/orgs/{org_slug}/auth/reset-password.
 */
export function registerPasswordResetPages(app: FastifyInstance, apiPrefix: string): void {
  const send = (action: string) => ({
    headers: {
      'content-type': 'text/html; charset=utf-8',
      'content-security-policy': CSP,
      'cache-control': 'no-store',
      'referrer-policy': 'no-referrer',
      'x-content-type-options': 'nosniff',
    },
    body: pageHtml(action),
  });
  app.get('/reset-password', async (_request, reply) => {
    const page = send(`${apiPrefix}/auth/reset-password`);
    return reply.headers(page.headers).send(page.body);
  });
  app.get<{ Params: { org_slug: string } }>(
    '/orgs/:org_slug/reset-password',
    {
      schema: {
        params: {
          type: 'object',
          properties: { org_slug: { type: 'string', pattern: ORG_SLUG } },
          required: ['org_slug'],
        },
      },
    },
    async (request, reply) => {
      const page = send(`${apiPrefix}/orgs/${request.params.org_slug}/auth/reset-password`);
      return reply.headers(page.headers).send(page.body);
    },
  );
}

/**
 * The links of reset mails: PUBLIC_WEB_URL's pages with `?token=` when it is set (a web app of its
 * own), else this API's pages above, the token in the fragment.
 */
export function resetLinks(
  publicWebUrl: string | null,
  api: { readonly host: string; readonly port: number },
): { main: (token: string) => string; storefront: (slug: string, token: string) => string } {
  if (publicWebUrl !== null)
    return {
      main: (t) => `${publicWebUrl}/reset-password?token=${t}`,
      storefront: (slug, t) => `${publicWebUrl}/orgs/${slug}/reset-password?token=${t}`,
    };
  // A wildcard listening address is reached on the loopback; an IPv6 literal goes in brackets.
  const host =
    api.host === '0.0.0.0' || api.host === '::' || api.host === ''
      ? '127.0.0.1'
      : api.host.includes(':')
        ? `[${api.host}]`
        : api.host;
  const base = `http://${host}:${api.port}`;
  return {
    main: (t) => `${base}/reset-password#token=${t}`,
    storefront: (slug, t) => `${base}/orgs/${slug}/reset-password#token=${t}`,
  };
}
