import { EventEmitter } from 'node:events';
import { Drain } from './drain';

/** A connection, and requests on it with the parts of a response the drain touches. */
function connection() {
  const socket = new EventEmitter();
  const exchange = (complete = true) => {
    const req = { path: '/x', complete, socket };
    const res = Object.assign(new EventEmitter(), {
      req,
      headersSent: false,
      setHeader: jest.fn(),
    });
    return { req, res };
  };
  return { socket, exchange };
}

describe('Drain', () => {
  it('counts requests in flight, one connection carrying several in turn', async () => {
    const drain = new Drain();
    const { exchange } = connection();
    const first = exchange();
    const second = exchange();
    drain.track(first.req as never, first.res as never);
    drain.track(second.req as never, second.res as never);
    expect(drain.inFlight).toBe(2);
    const idle = drain.idle();
    first.res.emit('close');
    expect(drain.inFlight).toBe(1);
    second.res.emit('close');
    expect(drain.inFlight).toBe(0);
    await expect(idle).resolves.toBeUndefined();
  });

  it("names the response a connection is answering, until it closes (for Node's clientError)", () => {
    const drain = new Drain();
    const { socket, exchange } = connection();
    expect(drain.answering(socket)).toBeUndefined();
    const first = exchange();
    drain.track(first.req as never, first.res as never);
    expect(drain.answering(socket)).toBe(first.res);
    first.res.emit('close');
    expect(drain.answering(socket)).toBeUndefined();
  });

  it('closes the connection of the answer still to come when draining starts', () => {
    const drain = new Drain();
    const a = connection().exchange();
    const b = connection().exchange();
    drain.track(a.req as never, a.res as never);
    drain.track(b.req as never, b.res as never);
    b.res.headersSent = true;
    a.res.emit('close');
    drain.start();
    // a's answer is done (nothing to close); b's headers are out (too late to say so).
    expect(a.res.setHeader).not.toHaveBeenCalled();
    expect(b.res.setHeader).not.toHaveBeenCalled();
    const c = connection().exchange();
    drain.track(c.req as never, c.res as never);
    drain.start();
    expect(c.res.setHeader).toHaveBeenCalledWith('Connection', 'close');
  });

  it('cuts only requests whose body has not all arrived, and forgets closed connections', () => {
    const drain = new Drain();
    const half = connection();
    const whole = connection();
    const cut = half.exchange(false);
    const kept = whole.exchange(true);
    const destroy = jest.fn();
    Object.assign(cut.res, { headersSent: true, destroy });
    drain.track(cut.req as never, cut.res as never);
    drain.track(kept.req as never, kept.res as never);
    expect(drain.cutIncomplete()).toBe(1);
    expect(destroy).toHaveBeenCalled();
    cut.res.emit('close');
    half.socket.emit('close');
    expect(drain.cutIncomplete()).toBe(0);
  });
});
