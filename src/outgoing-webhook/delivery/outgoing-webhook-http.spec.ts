import { untilAborted } from './outgoing-webhook-http';

describe('untilAborted', () => {
  it("gives the work's answer when it comes first", async () => {
    await expect(untilAborted(Promise.resolve(7), new AbortController().signal)).resolves.toBe(7);
  });

  it('rejects at the abort while the work still hangs (a name lookup that never answers)', async () => {
    const deadline = new AbortController();
    const hanging = untilAborted(new Promise<number>(() => undefined), deadline.signal);
    deadline.abort(new Error('deadline'));
    await expect(hanging).rejects.toThrow('deadline');
  });

  it('rejects at once for a signal already aborted', async () => {
    await expect(
      untilAborted(Promise.resolve(1), AbortSignal.abort(new Error('gone'))),
    ).rejects.toThrow('gone');
  });
});
