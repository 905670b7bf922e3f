import { Gate } from './embedded-postgres.gate';

describe('Gate', () => {
  it('lets one owner in at a time, the others in the order they came', async () => {
    const gate = new Gate<string>();
    const order: string[] = [];
    await gate.enter('a');
    const b = gate.enter('b').then(() => order.push('b'));
    const c = gate.enter('c').then(() => order.push('c'));
    expect(await gate.enter('a')).toBe(true); // the owner again: at once
    gate.leave('c'); // not the owner: nothing happens
    await Promise.resolve();
    expect(order).toEqual([]);
    gate.leave('a');
    await b;
    gate.leave('b');
    await c;
    expect(order).toEqual(['b', 'c']);
  });

  it('drops a waiter that is cancelled, telling it it was not let in', async () => {
    const gate = new Gate<string>();
    await gate.enter('a');
    const b = gate.enter('b');
    const c = gate.enter('c');
    gate.cancel('b');
    expect(await b).toBe(false);
    gate.leave('a');
    expect(await c).toBe(true);
  });
});
