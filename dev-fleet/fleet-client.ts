import { Agent, request } from 'node:http';
import { Agent as HttpsAgent, request as httpsRequest } from 'node:https';

/** One answer: its status, its parsed JSON body (when it has one), how long it took. */
export interface Answer<T = unknown> {
  status: number;
  body: T | undefined;
  headers: Record<string, string | string[] | undefined>;
  ms: number;
}

export interface ClientOptions {
  /** Open connections at most (kept alive and reused: no handshake per request). */
  sockets?: number;
  timeoutMs?: number;
}

/**
 * A small HTTP client on node:http with a keep-alive agent: a device's request costs the client
 * one write and one parse, so one load core can drive thousands of devices a second. Network
 * errors come back as status 0, never as a throw (a fleet keeps running through a restart).
 */
export class FleetClient {
  private readonly url: URL;
  private readonly agent: Agent;
  private readonly send: typeof request;
  private readonly timeoutMs: number;

  constructor(baseUrl: string, o: ClientOptions = {}) {
    this.url = new URL(baseUrl);
    const https = this.url.protocol === 'https:';
    const agentOptions = {
      keepAlive: true,
      maxSockets: o.sockets ?? 64,
      scheduling: 'lifo' as const,
    };
    this.agent = https ? new HttpsAgent(agentOptions) : new Agent(agentOptions);
    this.send = https ? httpsRequest : request;
    this.timeoutMs = o.timeoutMs ?? 10_000;
  }

  get baseUrl(): string {
    return this.url.origin;
  }

  json<T>(
    method: string,
    path: string,
    body?: unknown,
    headers: Record<string, string> = {},
  ): Promise<Answer<T>> {
    const payload = body === undefined ? undefined : Buffer.from(JSON.stringify(body));
    const started = performance.now();
    return new Promise((resolve) => {
      const done = (status: number, text: string, h: Answer['headers']) =>
        resolve({ status, body: parse<T>(text), headers: h, ms: performance.now() - started });
      const req = this.send(
        {
          protocol: this.url.protocol,
          hostname: this.url.hostname,
          port: this.url.port,
          method,
          path,
          agent: this.agent,
          timeout: this.timeoutMs,
          headers: {
            accept: 'application/json',
            ...(payload
              ? { 'content-type': 'application/json', 'content-length': payload.length }
              : {}),
            ...headers,
          },
        },
        (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (c: Buffer) => chunks.push(c));
          res.on('end', () =>
            done(res.statusCode ?? 0, Buffer.concat(chunks).toString('utf8'), res.headers),
          );
          res.on('error', () => done(0, '', {}));
        },
      );
      req.on('timeout', () => req.destroy(new Error('timeout')));
      req.on('error', () => done(0, '', {}));
      req.end(payload);
    });
  }

  close(): void {
    this.agent.destroy();
  }
}

function parse<T>(text: string): T | undefined {
  if (text.length === 0) return undefined;
  try {
    return JSON.parse(text) as T;
  } catch {
    return undefined;
  }
}
