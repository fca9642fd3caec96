/**
 * Fields that carry secrets, by name, wherever they appear: never written to a log line
 * (logger.ts) and never echoed back in a 422's `input` (http/secret-fields.ts). One list for both.
 */
export const SECRET_FIELDS: ReadonlySet<string> = new Set([
  'password',
  'new_password',
  'current_password',
  'code',
  'secret',
  'token',
  'refresh_token',
  'access_token',
  'mfa_token',
  'raw_key',
  'api_key',
  // Cloud compute: a console's one-time VNC ticket and the URL that carries it, a cloud-init password.
  'ticket',
  'vncticket',
  'websocket_url',
  'cipassword',
]);
