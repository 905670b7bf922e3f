import { randomUUID } from 'node:crypto';
import {
  BeforeApplicationShutdown,
  Inject,
  Injectable,
  Logger,
  OnApplicationBootstrap,
} from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { DataSource } from 'typeorm';
import { Clock } from '../../common/clock/clock';
import { AppConfig } from '../../config/app-config';
import { DeliveryWake } from '../outbox/delivery-wake.service';
import {
  AddressRefused,
  checkTarget,
  checkUrl,
  WEBHOOK_RESOLVER,
} from '../endpoints/outgoing-webhook-address';
import type { WebhookResolver } from '../endpoints/outgoing-webhook-address';
import { AttemptLimits, AttemptResult, postOnce, untilAborted } from './outgoing-webhook-http';
import { measureDeliveriesOf, outgoingDeliveries } from '../outgoing-webhook.metrics';
import { nextAttemptAt } from './outgoing-webhook-retry';
import { openSecret } from '../endpoints/outgoing-webhook-secrets';
import { DataKeyring } from '../../personal-data/data-keyring';
import { PersonalData } from '../../personal-data/personal-data.service';
import { signDelivery } from './outgoing-webhook-signer';
import { ERASED_ERROR } from '../outgoing-webhook.types';
import { ClaimedDelivery, WebhookDeliveryStore } from './webhook-delivery.store';

const CONCURRENCY = 16;
/**
 * Attempts in flight to one endpoint, across instances: a receiver that hangs holds at most this
 * many of an instance's slots, so other endpoints' events still go out at once (as Svix and Stripe
 * isolate endpoints). Also a courtesy to receivers; one endpoint's backlog drains this many at once.
 */
export const PER_ENDPOINT = 4;
const POLL_MS = 1000;
/** On shutdown, attempts in flight get this long to finish; the rest are handed back. */
const SHUTDOWN_GRACE_MS = 2000;
/**
 * A lease outlives the attempt's deadline (set before the claim, so it covers the name lookup,
 * the address check and the POST) by this much: time to record the outcome, and clock skew
 * between instances.
 */
const LEASE_MARGIN_MS = 10_000;
/** The body's owner was erased: failed for good, nothing sent (contract section 9). */
const ERASED: AttemptResult = { ok: false, statusCode: null, error: ERASED_ERROR };

/**
 * Sends due deliveries, in every instance: claims them (SKIP LOCKED plus a lease, so two instances
 * never make the same attempt at once), posts, records the attempt. Woken at once by a commit in
 * this process; polls every second for the rest.
 */
@Injectable()
export class WebhookDeliveryWorker implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private readonly logger = new Logger('OutgoingWebhooks');
  private readonly inFlight = new Set<Promise<void>>();
  private readonly abort = new AbortController();
  private timer?: NodeJS.Timeout;
  private unlisten?: () => void;
  private ticking = false;
  private again = false;
  private stopping = false;

  constructor(
    private readonly config: AppConfig,
    private readonly clock: Clock,
    private readonly store: WebhookDeliveryStore,
    private readonly wake: DeliveryWake,
    @Inject(WEBHOOK_RESOLVER) private readonly resolve: WebhookResolver,
    private readonly personalData: PersonalData,
    private readonly keyring: DataKeyring,
    @InjectDataSource() dataSource: DataSource,
  ) {
    measureDeliveriesOf(dataSource, clock);
  }

  onApplicationBootstrap(): void {
    this.unlisten = this.wake.listen(() => this.kick());
    this.timer = setInterval(() => this.kick(), POLL_MS).unref();
    this.kick();
  }

  async beforeApplicationShutdown(): Promise<void> {
    this.stopping = true;
    clearInterval(this.timer);
    this.unlisten?.();
    const all = Promise.all(this.inFlight);
    let grace: NodeJS.Timeout | undefined;
    const late = new Promise<void>((r) => (grace = setTimeout(r, SHUTDOWN_GRACE_MS)));
    await Promise.race([all, late]);
    clearTimeout(grace);
    this.abort.abort();
    await all;
  }

  /** Starts a pass unless one runs; a kick during a pass makes it go round once more. */
  kick(): void {
    if (this.stopping) return;
    if (this.ticking) {
      this.again = true;
      return;
    }
    this.ticking = true;
    void this.tick()
      .catch((err: unknown) => this.logger.warn(`delivery pass failed: ${String(err)}`))
      .finally(() => {
        this.ticking = false;
        if (this.again && !this.stopping) {
          this.again = false;
          this.kick();
        }
      });
  }

  /** Claims as many due deliveries as there is room for; a finished attempt calls it again. */
  private async tick(): Promise<void> {
    const free = CONCURRENCY - this.inFlight.size;
    if (free <= 0 || this.stopping) return;
    const { timeoutMs } = this.config.outgoingWebhooks;
    // Before the claim: an attempt ends by then whatever it waits for, well within its lease.
    const deadline = AbortSignal.timeout(timeoutMs);
    const now = this.clock.now();
    const token = randomUUID();
    const lease = new Date(now.getTime() + timeoutMs + LEASE_MARGIN_MS);
    const claimed = await this.store.claim(now, free, lease, token, PER_ENDPOINT);
    const limits: AttemptLimits = { timeoutMs, deadline, stop: this.abort.signal };
    for (const d of claimed) this.track(this.attempt(d, token, limits));
  }

  private track(work: Promise<void>): void {
    const done = work
      .catch((err: unknown) => this.logger.warn(`recording a delivery failed: ${String(err)}`))
      .finally(() => {
        this.inFlight.delete(done);
        this.kick();
      });
    this.inFlight.add(done);
  }

  private async attempt(d: ClaimedDelivery, token: string, limits: AttemptLimits): Promise<void> {
    const body = await this.bodyOf(d);
    const result = body === null ? ERASED : await this.send({ ...d, payload: body }, limits);
    if (this.abort.signal.aborted && result.statusCode === null) {
      await this.store.release(d, token);
      return;
    }
    const now = this.clock.now();
    const gone = result.statusCode === 410;
    const next =
      result.ok || gone || result === ERASED
        ? null
        : nextAttemptAt(this.config.outgoingWebhooks.retryScheduleMs, d.attempts + 1, now);
    const disableAfterMs = this.config.outgoingWebhooks.disableAfterDays * 86_400_000;
    const attempt = { ...result, nextAttemptAt: next, gone };
    const stored = await this.store.finish(d, token, now, attempt, disableAfterMs);
    // As recorded: a disabled endpoint gets no further attempt, whatever the schedule said.
    const retrying = stored ? stored === 'pending' : next !== null;
    outgoingDeliveries.inc({ outcome: result.ok ? 'delivered' : retrying ? 'retrying' : 'failed' });
  }

  private async send(d: ClaimedDelivery, limits: AttemptLimits): Promise<AttemptResult> {
    const { allowPrivate } = this.config.outgoingWebhooks;
    try {
      const url = checkUrl(d.url, allowPrivate);
      const lookup = checkTarget(url, allowPrivate, this.resolve);
      const target = await untilAborted(lookup, AbortSignal.any([limits.deadline, limits.stop]));
      const now = this.clock.now();
      const headers = {
        ...signDelivery(this.secretsOf(d, now), d.eventId, now, d.payload),
        'Content-Type': 'application/json',
        'User-Agent': `device-care-service/${this.config.version} (webhooks)`,
      };
      return await postOnce(url, target, headers, d.payload, limits);
    } catch (err) {
      // The service's own reasons only (DeliveryFailureReason): an error's text may name the host.
      if (limits.deadline.aborted) return { ok: false, statusCode: null, error: 'timeout' };
      if (limits.stop.aborted) return { ok: false, statusCode: null, error: 'aborted' };
      if (err instanceof AddressRefused) return { ok: false, statusCode: null, error: err.reason };
      // Not sent (a secret that no longer decrypts, say): a failed attempt like any other, so the
      // schedule runs out instead of the lease being claimed again forever.
      this.logger.warn(`delivery ${d.eventId} not sent: ${String(err)}`);
      return { ok: false, statusCode: null, error: 'not_sent' };
    }
  }

  /**
   * The body as sent: a sealed one is opened at the last moment, under its owner's data key; null
   * when that key was destroyed (the owner erased), so nothing of it is sent any more.
   */
  private async bodyOf(d: ClaimedDelivery): Promise<string | null> {
    if (d.dataKeyId === null) return d.payload;
    const key = await this.personalData.keyOf(d.dataKeyId);
    return key ? this.personalData.open(key, d.payload) : null;
  }

  /** The current secret, and the previous one while its overlap lasts. */
  private secretsOf(d: ClaimedDelivery, now: Date): string[] {
    const secrets = [openSecret(this.keyring, d.secretEncrypted)];
    const until = d.previousSecretExpiresAt ? new Date(d.previousSecretExpiresAt) : null;
    if (d.previousSecretEncrypted && until && until > now) {
      secrets.push(openSecret(this.keyring, d.previousSecretEncrypted));
    }
    return secrets;
  }
}
