import { ConsoleLogger, Logger, type INestApplication } from '@nestjs/common';
import { AppConfig } from '../../config/app-config';
import { Drain } from './drain';
import { installGracefulShutdown } from './graceful-shutdown';

/** A request on its own connection, as the drain sees it (it marks the connection it answers on). */
function request(fields: Record<string, unknown>, res: Record<string, unknown>): never {
  const req = { ...fields, socket: { once: () => undefined } };
  res.req = req;
  return req as never;
}

/** The handler as a process would run it, with process.exit and the signal listeners caught. */
function harness(timeoutSeconds: string) {
  const drain = new Drain();
  let closed = false;
  const server = {
    close: jest.fn(),
    closeIdleConnections: jest.fn(),
    closeAllConnections: jest.fn(),
  };
  const app = {
    get: () => drain,
    getHttpServer: () => server,
    close: () => {
      closed = true;
      return Promise.resolve();
    },
  } as unknown as INestApplication;
  const handlers: ((signal: NodeJS.Signals) => void)[] = [];
  jest.spyOn(process, 'on').mockImplementation(((event: string, fn: never) => {
    if (event === 'SIGTERM') handlers.push(fn);
    return process;
  }) as never);
  const exit = jest.spyOn(process, 'exit').mockImplementation((() => undefined) as never);
  installGracefulShutdown(app, AppConfig.fromEnv({ SHUTDOWN_TIMEOUT_SECONDS: timeoutSeconds }));
  const signal = () => handlers[0]('SIGTERM');
  return { drain, exit, signal, server, closed: () => closed };
}

describe('graceful shutdown', () => {
  beforeAll(() => {
    Logger.overrideLogger(false);
  });
  afterAll(() => {
    Logger.overrideLogger(new ConsoleLogger());
  });
  // The deadline's timer is fake in every test: a real one would outlive the test.
  beforeEach(() => jest.useFakeTimers({ doNotFake: ['setImmediate'] }));
  afterEach(() => {
    jest.clearAllTimers();
    jest.restoreAllMocks();
    jest.useRealTimers();
  });

  it('waits for the request in flight, closes the app, then exits 0', async () => {
    const h = harness('30');
    const { drain } = h;
    // One request in flight: the gate counts it until its answer closes.
    const res = { once: (_e: string, fn: () => void) => (finish = fn), setHeader: () => undefined };
    let finish = () => undefined as void;
    drain.gate()(request({ path: '/x' }, res), res as never, () => undefined);
    h.signal();
    expect(drain.draining).toBe(true);
    await Promise.resolve();
    expect(h.closed()).toBe(false);
    finish();
    await new Promise((r) => setImmediate(r));
    expect(h.closed()).toBe(true);
    expect(h.exit).toHaveBeenCalledWith(0);
  });

  it('closes idle connections at once and every connection left once the requests are done', async () => {
    const h = harness('30');
    h.signal();
    expect(h.server.closeIdleConnections).toHaveBeenCalled();
    await new Promise((r) => setImmediate(r));
    expect(h.server.closeAllConnections).toHaveBeenCalled();
    expect(h.exit).toHaveBeenCalledWith(0);
  });

  it('answers 503 to a request whose body stops arriving, after the grace, then exits 0', async () => {
    const h = harness('30');
    let onClose = () => undefined as void;
    const res: Record<string, unknown> & { end: jest.Mock; status: jest.Mock; destroy: jest.Mock } =
      {
        headersSent: false,
        once: (_e: string, fn: () => void) => (onClose = fn),
        setHeader: jest.fn(),
        status: jest.fn((): unknown => res),
        set: jest.fn((): unknown => res),
        end: jest.fn((_body: string, sent: () => void) => sent()),
        destroy: jest.fn(() => onClose()),
      };
    h.drain.gate()(request({ path: '/x', complete: false }, res), res as never, () => undefined);
    h.signal();
    jest.advanceTimersByTime(1999);
    expect(res.end).not.toHaveBeenCalled();
    jest.advanceTimersByTime(1);
    expect(res.status).toHaveBeenCalledWith(503);
    expect(res.destroy).toHaveBeenCalled();
    await new Promise((r) => setImmediate(r));
    expect(h.exit).toHaveBeenCalledWith(0);
  });

  it('exits 1 at the deadline while a request is still in flight', () => {
    const h = harness('2');
    const res = { once: () => undefined, setHeader: () => undefined };
    h.drain.gate()(request({ path: '/x', complete: true }, res), res as never, () => undefined);
    h.signal();
    jest.advanceTimersByTime(1999);
    expect(h.exit).not.toHaveBeenCalled();
    jest.advanceTimersByTime(1);
    expect(h.exit).toHaveBeenCalledWith(1);
  });

  it('exits 1 at once on a second signal', () => {
    const h = harness('600');
    const res = { once: () => undefined, setHeader: () => undefined };
    h.drain.gate()(request({ path: '/x' }, res), res as never, () => undefined);
    h.signal();
    expect(h.exit).not.toHaveBeenCalled();
    h.signal();
    expect(h.exit).toHaveBeenCalledWith(1);
  });
});
