import { errorResponses } from '../../../kernel/http/error-schemas.ts';
import type { ModuleApp } from '../../../kernel/module/platform-module.ts';
import { UnsubscribeParams, UnsubscribeResponse } from './unsubscribe-schemas.ts';
import type { UnsubscribeService } from './unsubscribe-service.ts';

const PAGE = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width">
<title>Unsubscribed</title></head>
<body style="font-family:system-ui,sans-serif;max-width:32rem;margin:4rem auto;padding:0 1rem">
<h1>You are unsubscribed</h1>
<p>This sender will not send mail to your address through this relay any more.</p>
</body></html>
`;

/**
 * Unsubscribing (docs/mail.md, "Suppressions and unsubscribing"): GET / POST
 * /mail/unsubscribe/{token}, with no credential. A mailbox
 * provider POSTs `List-Unsubscribe=One-Click` (RFC 8058 §3.2, form-encoded); a person following
 * the link GETs it: both put the addressee on the relay's suppression list (repeating is
 * harmless) and answer 200 — a small page for GET, an empty body for POST. A forged token is 404.
 */
export function registerUnsubscribeRoutes(app: ModuleApp, service: UnsubscribeService): void {
  // RFC 8058 §3.2: the POST body is `application/x-www-form-urlencoded` or `multipart/form-data`;
  // its content does not change the outcome, so it is read as text and not interpreted.
  app.addContentTypeParser(
    ['application/x-www-form-urlencoded', 'multipart/form-data', 'text/plain'],
    { parseAs: 'string', bodyLimit: 16 * 1024 },
    (_request, body, done) => done(null, body),
  );

  app.get(
    '/mail/unsubscribe/:token',
    {
      config: { auth: 'public' },
      schema: {
        summary: 'Unsubscribe the addressee a link names (a page for people)',
        params: UnsubscribeParams,
        response: { 200: UnsubscribeResponse, ...errorResponses(404, 422, 429) },
      },
    },
    async (request, reply) => {
      await service.unsubscribe(request.params.token);
      return reply.type('text/html; charset=utf-8').send(PAGE);
    },
  );

  app.post(
    '/mail/unsubscribe/:token',
    {
      config: { auth: 'public', audit: false },
      schema: {
        summary: 'One-click unsubscribe (RFC 8058): the mailbox provider posts List-Unsubscribe=One-Click',
        params: UnsubscribeParams,
        response: { 200: UnsubscribeResponse, ...errorResponses(404, 415, 422, 429) },
      },
    },
    async (request, reply) => {
      await service.unsubscribe(request.params.token);
      return reply.code(200).type('text/plain; charset=utf-8').send('');
    },
  );
}
