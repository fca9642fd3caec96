/**
 * Test helper: what the local Modrinth, CurseForge and Paper servers share — an HTTP listener on a
 * free loopback port that records each request, serves the files it was given (with a switch to
 * serve other bytes under a file's name), and can be made to fail: a 500, a connection closed
 * without an answer, no answer at all, or a 200 whose body is not JSON.
 */
import http from 'node:http';

/** `hang`: the request is read and never answered (a timeout). */
export type FailMode = 'none' | 'status500' | 'close' | 'garbage' | 'hang';

export interface RecordedRequest {
  readonly method: string;
  /** Path and query as sent. */
  readonly url: string;
  readonly headers: http.IncomingHttpHeaders;
  readonly body: string;
}

export interface JsonAnswer {
  readonly status: number;
  /** Undefined: an empty body. */
  readonly json?: unknown;
}

export type ApiHandler = (req: RecordedRequest, url: URL) => JsonAnswer;

export interface GameSourceServer {
  /** `http://127.0.0.1:<port>`. */
  readonly url: string;
  readonly requests: RecordedRequest[];
  /** API requests only (downloads left out). */
  apiRequests(): RecordedRequest[];
  fail(mode: FailMode): void;
  /** Serve `bytes` instead of the file at `path` (a download that does not match its hashes). */
  serveWrongFile(path: string, bytes: Buffer): void;
  close(): Promise<void>;
}

export interface GameSourceServerParts {
  readonly handle: ApiHandler;
  /** Download path → bytes. */
  readonly files: Map<string, Buffer>;
}

export async function startGameSourceServer(
  makeParts: (baseUrl: string) => GameSourceServerParts,
): Promise<GameSourceServer> {
  const requests: RecordedRequest[] = [];
  const wrong = new Map<string, Buffer>();
  let failing: FailMode = 'none';
  let parts: GameSourceServerParts | null = null;
  const downloads = new Set<RecordedRequest>();

  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const recorded = {
        method: req.method ?? 'GET',
        url: req.url ?? '/',
        headers: req.headers,
        body: Buffer.concat(chunks).toString('utf8'),
      };
      requests.push(recorded);
      if (failing === 'close') return void req.socket.destroy();
      if (failing === 'hang') return;
      if (failing === 'status500') return void send(res, { status: 500, json: { error: 'internal' } });
      if (failing === 'garbage')
        return void res.writeHead(200, { 'content-type': 'application/json' }).end('<html>');
      const url = new URL(recorded.url, 'http://127.0.0.1');
      const file = wrong.get(url.pathname) ?? parts!.files.get(url.pathname);
      if (file !== undefined && recorded.method === 'GET') {
        downloads.add(recorded);
        return void res.writeHead(200, { 'content-type': 'application/java-archive' }).end(file);
      }
      send(res, parts!.handle(recorded, url));
    });
  });
  await new Promise<void>((resolve) => server.listen({ host: '127.0.0.1', port: 0 }, resolve));
  const address = server.address();
  const url = `http://127.0.0.1:${typeof address === 'object' && address !== null ? address.port : 0}`;
  parts = makeParts(url);
  return {
    url,
    requests,
    apiRequests: () => requests.filter((r) => !downloads.has(r)),
    fail: (mode) => {
      failing = mode;
    },
    serveWrongFile: (path, bytes) => void wrong.set(path, bytes),
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

function send(res: http.ServerResponse, answer: JsonAnswer): void {
  if (answer.json === undefined) return void res.writeHead(answer.status).end();
  res.writeHead(answer.status, { 'content-type': 'application/json' }).end(JSON.stringify(answer.json));
}

/** A JSON request body, or null when it does not parse. */
export function jsonBody(req: RecordedRequest): unknown {
  try {
    return JSON.parse(req.body) as unknown;
  } catch {
    return null;
  }
}
