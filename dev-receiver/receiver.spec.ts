import { request } from 'node:http';
import { Webhook } from 'standardwebhooks';
import { describeDelivery, RunningReceiver, startReceiver } from './receiver';
import { readReceiverOptions } from './receiver-options';

const SECRET = `whsec_${Buffer.from('dev-receiver-test-secret-32-bytes!').toString('base64')}`;
const OTHER = `whsec_${Buffer.from('another-secret-of-thirty-two-byte').toString('base64')}`;

const body = JSON.stringify({
  type: 'subscription.paid',
  timestamp: '2026-11-25T14:00:00.000Z',
  data: { id: 'sub-1', status: 'paid', product: 'lease', email: 'dana@example.com', history: [] },
});

/** The headers the service sends, signed with `Webhook#sign` as it signs. */
function signed(payload: string, secret = SECRET, id = 'msg_test_1') {
  const at = new Date();
  return {
    'webhook-id': id,
    'webhook-timestamp': String(Math.floor(at.getTime() / 1000)),
    'webhook-signature': new Webhook(secret).sign(id, at, payload),
  };
}

function post(url: string, payload: string, headers: Record<string, string>): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = request(url, { method: 'POST', headers }, (res) => {
      res.resume();
      resolve(res.statusCode ?? 0);
    });
    req.on('error', reject);
    req.end(payload);
  });
}

describe('the development webhook receiver', () => {
  it('verifies a delivery signed with its secret and summarizes it', () => {
    const d = describeDelivery(Buffer.from(body), signed(body), [SECRET]);
    expect(d).toMatchObject({
      id: 'msg_test_1',
      type: 'subscription.paid',
      timestamp: '2026-11-25T14:00:00.000Z',
      summary: 'id=sub-1 status=paid product=lease email=dana@example.com',
      verified: true,
    });
  });

  it('refuses a tampered body, a changed id and another secret', () => {
    const headers = signed(body);
    const tampered = body.replace('"paid"', '"canceled"');
    expect(describeDelivery(Buffer.from(tampered), headers, [SECRET]).verified).toBe(false);
    const otherId = { ...headers, 'webhook-id': 'msg_test_2' };
    expect(describeDelivery(Buffer.from(body), otherId, [SECRET]).verified).toBe(false);
    const d = describeDelivery(Buffer.from(body), signed(body, OTHER), [SECRET]);
    expect(d.verified).toBe(false);
    expect(d.reason).toMatch(/signature/i);
  });

  it('verifies with either secret while one is rotated, and checks nothing without one', () => {
    expect(describeDelivery(Buffer.from(body), signed(body, OTHER), [SECRET, OTHER]).verified).toBe(
      true,
    );
    expect(describeDelivery(Buffer.from(body), signed(body), []).verified).toBeUndefined();
  });

  it('refuses a signature older than the tolerance', () => {
    const old = new Date(Date.now() - 10 * 60 * 1000);
    const headers = {
      'webhook-id': 'msg_old',
      'webhook-timestamp': String(Math.floor(old.getTime() / 1000)),
      'webhook-signature': new Webhook(SECRET).sign('msg_old', old, body),
    };
    expect(describeDelivery(Buffer.from(body), headers, [SECRET]).verified).toBe(false);
  });

  it('says what it cannot read instead of failing on it', () => {
    const d = describeDelivery(Buffer.from('not json'), {}, [SECRET]);
    expect(d).toMatchObject({ type: '(body is not JSON)', id: '(no webhook-id)', verified: false });
  });

  describe('over HTTP', () => {
    let receiver: RunningReceiver | undefined;
    const lines: string[] = [];
    afterEach(async () => {
      await receiver?.close();
      lines.length = 0;
    });

    it('answers 204 and prints each delivery with its verdict', async () => {
      receiver = await startReceiver({ port: 0, secrets: [SECRET], print: (l) => lines.push(l) });
      const json = { 'Content-Type': 'application/json' };
      await expect(post(`${receiver.url}/hooks`, body, { ...json, ...signed(body) })).resolves.toBe(
        204,
      );
      const tampered = body.replace('sub-1', 'sub-2');
      await expect(post(receiver.url, tampered, { ...json, ...signed(body) })).resolves.toBe(204);
      expect(receiver.deliveries.map((d) => d.verified)).toEqual([true, false]);
      expect(lines[0]).toMatch(
        /^subscription\.paid msg_test_1 at 2026-11-25T14:00:00\.000Z .*signature verified$/,
      );
      // The record it got, indented under its line.
      expect(lines[1]).toMatch(/^ {4}\{\n {6}"id": "sub-1",/);
      expect(lines[2]).toMatch(/signature NOT verified/);
    });

    it('answers the status it was told to', async () => {
      receiver = await startReceiver({ port: 0, secrets: [], answer: 500, print: () => {} });
      await expect(post(receiver.url, body, signed(body))).resolves.toBe(500);
      expect(receiver.deliveries).toHaveLength(1);
    });

    it('never answers when told to hang, and still records the delivery', async () => {
      receiver = await startReceiver({
        port: 0,
        secrets: [SECRET],
        answer: 'hang',
        print: () => {},
      });
      const pending = post(receiver.url, body, signed(body)).catch((err: Error) => err.message);
      await new Promise<void>((resolve) => {
        const poll = () => (receiver!.deliveries.length > 0 ? resolve() : setTimeout(poll, 10));
        poll();
      });
      await receiver.close();
      receiver = undefined;
      await expect(pending).resolves.toMatch(/socket hang up|ECONNRESET/);
    });
  });
});

describe("dev:receiver's command line", () => {
  it('takes the secrets from RECEIVER_SECRET (comma-separated), so npm does not print them', () => {
    const o = readReceiverOptions([], { RECEIVER_SECRET: `${SECRET}, ${OTHER}` });
    expect(o).toMatchObject({ port: 4100, secrets: [SECRET, OTHER], answer: 204 });
    expect(readReceiverOptions(['--secret', OTHER], { RECEIVER_SECRET: SECRET }).secrets).toEqual([
      SECRET,
      OTHER,
    ]);
    expect(readReceiverOptions(['--port', '0', '--hang'], {})).toMatchObject({
      port: 0,
      secrets: [],
      answer: 'hang',
    });
    expect(() => readReceiverOptions(['--status', '99'], {})).toThrow('--status');
  });
});
