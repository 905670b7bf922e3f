import { DataSource } from 'typeorm';
import {
  ResolvedAddress,
  WEBHOOK_RESOLVER,
} from '../../src/outgoing-webhook/endpoints/outgoing-webhook-address';
import { capturedLogs } from '../support/captured-logs';
import { eventually, WebhookReceiver } from '../support/webhook-receiver';
import {
  addEndpoint,
  recordDeviceEvent,
  storedDelivery,
  WebhookWorld,
  webhookWorld,
} from './support';

interface AuditLine {
  audit?: string;
  actor?: string;
  endpoint_id?: string;
  org_id?: string;
  reason?: string;
}

/** A lookup that never answers (a DNS server that drops the query); it counts its calls. */
let lookups = 0;
const hangingResolver = (): Promise<ResolvedAddress[]> => {
  lookups++;
  return new Promise<ResolvedAddress[]>(() => undefined);
};

describe('outgoing webhooks: the attempt deadline, and the audit lines of a disabling', () => {
  let w: WebhookWorld;
  const logs = capturedLogs({
    OUTGOING_WEBHOOK_TIMEOUT_SECONDS: '1',
    OUTGOING_WEBHOOK_RETRY_SCHEDULE: '1h,1d',
    OUTGOING_WEBHOOK_DISABLE_AFTER_DAYS: '1',
  });
  const receivers: WebhookReceiver[] = [];
  beforeAll(async () => {
    w = await webhookWorld(logs.options.env, {
      override: (b) =>
        logs.options.override(b).overrideProvider(WEBHOOK_RESOLVER).useValue(hangingResolver),
    });
  });
  afterAll(async () => {
    await w.close();
    for (const r of receivers) await r.stop();
  });

  const endpointAt = async (answer: WebhookReceiver['answer']) => {
    const receiver = await new WebhookReceiver().start();
    receivers.push(receiver);
    receiver.answer = answer;
    return addEndpoint(w.t, w.admin.cookie, {
      url: receiver.url,
      event_types: ['device.registered'],
    });
  };
  const disabledLines = (endpointId: string) =>
    logs.lines
      .map((l) => JSON.parse(l) as AuditLine)
      .filter((l) => l.audit === 'webhook_endpoint_disabled' && l.endpoint_id === endpointId);
  const enabled = async (endpointId: string) => {
    const [row] = await w.t.app
      .get(DataSource)
      .query<{ enabled: boolean }[]>('SELECT enabled FROM webhook_endpoints WHERE id = $1', [
        endpointId,
      ]);
    return row.enabled;
  };

  it('ends an attempt whose name lookup hangs at the timeout, within its lease', async () => {
    const endpoint = await addEndpoint(w.t, w.admin.cookie, {
      url: 'http://lookup-hangs.invalid/hook',
      event_types: ['device.registered'],
    });
    const before = lookups;
    const eventId = await recordDeviceEvent(w.t, w.fulfilmentOrgId);
    await eventually('the lookup started', () => lookups > before);
    const [lease] = await w.t.app
      .get(DataSource)
      .query<{ claimed_until: Date | null }[]>(
        'SELECT claimed_until FROM webhook_deliveries WHERE endpoint_id = $1 AND event_id = $2',
        [endpoint.id, eventId],
      );
    // The fake clock stands still: the lease runs past the 1 s deadline by its margin.
    expect(new Date(lease.claimed_until!).getTime() - w.clock.now().getTime()).toBeGreaterThan(
      1000,
    );
    const d = await eventually('the attempt recorded', async () => {
      const row = await storedDelivery(w.t, endpoint.id, eventId);
      return row?.attempts === 1 ? row : undefined;
    });
    expect(d).toMatchObject({ status: 'pending', last_status_code: null });
    expect(d.last_error).toBe('timeout');
  });

  it('writes an audit line when a 410 disables the endpoint', async () => {
    const endpoint = await endpointAt(() => ({ status: 410 }));
    const eventId = await recordDeviceEvent(w.t, w.fulfilmentOrgId);
    await eventually('disabled', async () => !(await enabled(endpoint.id)));
    expect(await storedDelivery(w.t, endpoint.id, eventId)).toMatchObject({ status: 'failed' });
    expect(disabledLines(endpoint.id)).toEqual([
      expect.objectContaining({
        actor: 'system',
        org_id: w.fulfilmentOrgId,
        reason: 'the receiver answered 410 Gone',
      }),
    ]);
  });

  it('writes an audit line when every delivery failed for OUTGOING_WEBHOOK_DISABLE_AFTER_DAYS', async () => {
    const endpoint = await endpointAt(() => ({ status: 500 }));
    const eventId = await recordDeviceEvent(w.t, w.fulfilmentOrgId);
    const attempts = (n: number) =>
      eventually(
        `attempt ${n}`,
        async () => (await storedDelivery(w.t, endpoint.id, eventId))?.attempts === n,
      );
    await attempts(1);
    w.clock.advance(2 * 3600);
    await attempts(2);
    // Failing for 2 h: not yet.
    expect(await enabled(endpoint.id)).toBe(true);
    expect(disabledLines(endpoint.id)).toEqual([]);
    w.clock.advance(30 * 3600);
    await attempts(3);
    await eventually('disabled', async () => !(await enabled(endpoint.id)));
    expect(disabledLines(endpoint.id)).toEqual([
      expect.objectContaining({
        actor: 'system',
        org_id: w.fulfilmentOrgId,
        reason: 'every delivery failed for 1 days',
      }),
    ]);
  });
});
