import type { AddressInfo } from 'node:net';
import type { SMTPServer, SMTPServerDataStream } from 'smtp-server';
import type { MailContext } from '../mail-context.ts';
import { queueIdOf } from '../sending/return-path.ts';
import type { ReportIntake } from './report-intake.ts';

/** Reports are small (RET=HDRS); a returned full message is bounded too. */
const MAX_REPORT_BYTES = 10 * 1024 * 1024;

/**
 * The inbound SMTP listener (`smtp-server`) at MAIL_INBOUND_PORT, the MX of MAIL_BOUNCE_DOMAIN:
 * it takes mail for the return paths (`bounce+<token>@`, with a valid token) and for `abuse@` —
 * DSNs and feedback reports — and refuses every other recipient at RCPT TO (550 5.1.1), so it is
 * no open door. What it takes goes to the report intake; a message is acknowledged once its
 * events are recorded (a failure answers 451, and the sending MTA tries again).
 */
export class InboundListener {
  private server: SMTPServer | null = null;

  constructor(
    private readonly ctx: MailContext,
    private readonly intake: ReportIntake,
  ) {}

  /** Listens; answers the port (MAIL_INBOUND_PORT, or the one the system chose for 0 in tests). */
  async start(port: number, host: string): Promise<number> {
    const { SMTPServer } = await import('smtp-server');
    const domain = this.ctx.settings.bounceDomain;
    const accepts = (address: string): boolean => {
      const a = address.toLowerCase();
      return a === `abuse@${domain}` || queueIdOf(this.ctx.sealer, a, domain) !== null;
    };
    const server = new SMTPServer({
      name: domain,
      banner: 'delivery reports',
      authOptional: true,
      disabledCommands: ['AUTH', 'STARTTLS'],
      size: MAX_REPORT_BYTES,
      logger: false,
      onRcptTo: (address, _session, callback) => {
        if (accepts(address.address)) return callback();
        const error = new Error('5.1.1 No such mailbox here') as Error & { responseCode: number };
        error.responseCode = 550;
        callback(error);
      },
      onData: (stream: SMTPServerDataStream, session, callback) => {
        const chunks: Buffer[] = [];
        stream.on('data', (c: Buffer) => chunks.push(c));
        stream.on('end', () => {
          if (stream.sizeExceeded) {
            const error = new Error('5.3.4 Message too big') as Error & { responseCode: number };
            error.responseCode = 552;
            return callback(error);
          }
          const recipients = session.envelope.rcptTo.map((r) => r.address);
          this.intake.receive(Buffer.concat(chunks), recipients).then(
            () => callback(),
            (e: unknown) => {
              this.ctx.log.error({ err: e }, 'inbound report not recorded');
              const error = new Error('4.3.0 Try again later') as Error & { responseCode: number };
              error.responseCode = 451;
              callback(error);
            },
          );
        });
      },
    });
    server.on('error', (e) => this.ctx.log.warn({ err: e }, 'inbound SMTP listener error'));
    await new Promise<void>((resolve, reject) => {
      server.server.once('error', reject);
      server.listen(port, host, () => {
        server.server.off('error', reject);
        resolve();
      });
    });
    this.server = server;
    return (server.server.address() as AddressInfo).port;
  }

  async stop(): Promise<void> {
    const s = this.server;
    this.server = null;
    if (s !== null) await new Promise<void>((resolve) => s.close(() => resolve()));
  }
}
