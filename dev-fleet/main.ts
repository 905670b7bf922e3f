import { readEnv } from '../src/config/load-env';
import { FleetMember, adminCookie, registerAll, setOfflineAfter, ship } from './fleet-admin';
import { FleetClient } from './fleet-client';
import { newFleetKey } from './fleet-keys';
import { readOptions, USAGE } from './fleet-options';
import { planFleet } from './fleet-plan';
import { runFleet } from './fleet-run';

const DEFAULT_IDP = 'http://127.0.0.1:4400';
const DEFAULT_CLIENT_ID = 'device-care-dev';

async function main(): Promise<void> {
  // The service's own settings (BASE_URL, OIDC_ISSUER, OIDC_AUDIENCE): .env under the environment.
  const env = readEnv();
  const o = readOptions(process.argv.slice(2), env);
  if (o.help) return console.log(USAGE);
  for (const w of o.warnings) console.warn(`dev:fleet: ${w}`);
  const client = new FleetClient(o.baseUrl, { sockets: o.concurrency });
  const cookie = await adminCookie(client, {
    cookie: o.cookie,
    email: o.email,
    issuer: (env.OIDC_ISSUER?.split(',')[0] ?? DEFAULT_IDP).replace(/\/+$/, ''),
    clientId: env.OIDC_AUDIENCE?.split(',')[0] ?? DEFAULT_CLIENT_ID,
  });
  const t0 = performance.now();
  const members: FleetMember[] = Array.from({ length: o.devices }, (_, i) => ({
    deviceId: `${o.prefix}${String(i).padStart(6, '0')}`,
    model: o.model,
    provider: o.provider,
    key: newFleetKey(o.keyKind),
  }));
  console.log(
    `dev:fleet: ${o.devices} devices ${o.prefix}000000… (${o.keyKind} keys) → ${o.baseUrl}`,
  );
  const reg = await registerAll(client, cookie, members, (done) =>
    console.log(`  registered ${done}/${o.devices}`),
  );
  const secs = ((performance.now() - t0) / 1000).toFixed(1);
  console.log(
    `registered in ${secs} s: ${reg.created} created, ${reg.existing} existing, ${reg.errors.length} errors` +
      (reg.oneByOne ? ' (no batch route on this service: one POST /api/v1/devices each)' : ''),
  );
  for (const e of reg.errors.slice(0, 5)) console.log(`  row ${e.index}: ${e.code} ${e.message}`);
  if (reg.existing > 0) {
    console.log(
      '  existing devices keep the key they were registered with: their tokens will be refused',
    );
  }
  if (o.registerOnly) return client.close();
  if (o.offlineAfter !== undefined) {
    await setOfflineAfter(client, cookie, o.offlineAfter);
    console.log(`organization's device_offline_after_seconds set to ${o.offlineAfter}`);
  }
  if (o.ship) {
    await ship(client, cookie, o.ship, members[0].deviceId);
    console.log(`subscription ${o.ship} shipped to ${members[0].deviceId} (subscription.shipped)`);
  }
  const states = planFleet(o, Date.now());
  const watched = states.filter((d) => d.watched).map((d) => d.deviceId);
  const quiet = states.filter((d) => d.quietAt !== null).length;
  console.log(
    `running: a heartbeat every ${(o.heartbeatMs / 1000).toFixed(0)} s, ${quiet} devices go quiet for ` +
      `${(o.quietMs / 1000).toFixed(0)} s; watching ${watched.join(', ')}; Ctrl-C stops`,
  );
  let stop: () => void = () => undefined;
  const until = new Promise<void>((resolve) => (stop = resolve));
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
  if (o.durationMs !== undefined) setTimeout(stop, o.durationMs).unref();
  await runFleet({
    client,
    audience: `${o.audience}/auth/device`,
    members,
    states,
    schedule: {
      heartbeatMs: o.heartbeatMs,
      refreshMarginMs: 60_000,
      quietMs: o.quietMs,
      retryMs: Math.min(30_000, o.heartbeatMs),
    },
    intervalMs: o.intervalMs,
    concurrency: o.concurrency,
    until,
    print: (line) => console.log(line),
  });
  client.close();
}

main().catch((err: unknown) => {
  console.error(err instanceof Error ? err.message : err);
  process.exit(1);
});
