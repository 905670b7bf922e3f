import { Link } from 'react-router';
import { api } from '../api/client';
import { data } from '../api/problem';
import { useSignedIn } from '../auth/session';
import { Page } from '../ui/page';
import { ProblemMessage } from '../ui/problem-message';
import { useLoad } from '../ui/use-load';

/** The organization's devices by health, and for the fulfilment team the paid homes waiting. */
export function OverviewPage() {
  const { org } = useSignedIn();
  const summary = useLoad(() => data(api.GET('/api/v1/devices/summary')), []);
  const waiting = useLoad(
    async () =>
      org.fulfilment
        ? data(
            api.GET('/api/v1/subscriptions', {
              params: { query: { awaiting_device: true, limit: 200 } },
            }),
          )
        : undefined,
    [org.fulfilment],
  );
  const s = summary.value;
  return (
    <Page title="Overview">
      <ProblemMessage error={summary.error} />
      <section aria-labelledby="devices-heading">
        <h2 id="devices-heading">Devices</h2>
        {s ? (
          <ul className="tiles">
            <Tile label="Online" count={s.online} to="/devices?health=online" />
            <Tile label="Offline" count={s.offline} to="/devices?health=offline" />
            <Tile label="Never seen" count={s.never_seen} to="/devices?health=never_seen" />
            <Tile label="Battery low" count={s.battery_low} />
          </ul>
        ) : (
          !summary.error && <p role="status">Loading…</p>
        )}
      </section>
      {org.fulfilment && (
        <section aria-labelledby="waiting-heading">
          <h2 id="waiting-heading">Paid, waiting for a device</h2>
          <ProblemMessage error={waiting.error} />
          {waiting.value && (
            <p>
              <Link to="/subscriptions?awaiting_device=true">
                {waiting.value.items.length === 1
                  ? '1 paid subscription'
                  : `${waiting.value.items.length}${waiting.value.next_cursor ? '+' : ''} paid subscriptions`}
              </Link>{' '}
              waiting for a device to be shipped.
            </p>
          )}
        </section>
      )}
    </Page>
  );
}

/** A count; a link to the devices it counts where the list can filter by it (health). */
function Tile({ label, count, to }: { label: string; count: number; to?: string }) {
  const body = (
    <>
      <span className="count">{count}</span> <span>{label}</span>
    </>
  );
  return <li className="tile">{to ? <Link to={to}>{body}</Link> : <div>{body}</div>}</li>;
}
