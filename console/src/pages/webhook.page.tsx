import { useState } from 'react';
import { Link, useParams } from 'react-router';
import { api } from '../api/client';
import { data } from '../api/problem';
import { Page } from '../ui/page';
import { ProblemMessage } from '../ui/problem-message';
import { Time } from '../ui/time';
import { useAction } from '../ui/use-action';
import { useLoad } from '../ui/use-load';
import { ListFooter } from '../ui/list-footer';
import { usePages } from '../ui/use-pages';
import { SecretOnce } from './webhooks.secret';

/** One endpoint: enable or disable, rotate its secret, send a test, its deliveries and retries. */
export function WebhookPage() {
  const { id = '' } = useParams();
  const path = { params: { path: { id } } };
  const endpoint = useLoad(() => data(api.GET('/api/v1/webhook-endpoints/{id}', path)), [id]);
  const deliveries = usePages(
    (cursor) =>
      data(
        api.GET('/api/v1/webhook-endpoints/{id}/deliveries', {
          params: { path: { id }, query: { cursor } },
        }),
      ),
    [id],
  );
  const action = useAction(() => {
    endpoint.reload();
    deliveries.reload();
  });
  const [secret, setSecret] = useState<string>();
  const e = endpoint.value;

  const act = action.run;

  const toggle = () =>
    act(async () => {
      const next = !e?.enabled;
      await data(api.PATCH('/api/v1/webhook-endpoints/{id}', { ...path, body: { enabled: next } }));
      return next ? 'The endpoint is enabled.' : 'The endpoint is disabled.';
    });
  const rotate = () =>
    act(async () => {
      setSecret(
        (await data(api.POST('/api/v1/webhook-endpoints/{id}/rotate-secret', path))).secret,
      );
      return 'The endpoint has a new signing secret.';
    });
  const test = () =>
    act(async () => {
      await data(api.POST('/api/v1/webhook-endpoints/{id}/test', path));
      return 'A test event was queued.';
    });
  const retry = (eventId: string) =>
    act(async () => {
      await data(
        api.POST('/api/v1/webhook-endpoints/{id}/deliveries/{event_id}/retry', {
          params: { path: { id, event_id: eventId } },
        }),
      );
      return 'The delivery is queued again.';
    });

  return (
    <Page title="Webhook endpoint">
      <p>
        <Link to="/webhooks">All endpoints</Link>
      </p>
      <ProblemMessage error={endpoint.error ?? action.failure} />
      {action.notice && <p role="status">{action.notice}</p>}
      {secret && e && (
        <SecretOnce url={e.url} secret={secret} onDismiss={() => setSecret(undefined)} />
      )}
      {e && (
        <>
          <dl className="facts">
            <div>
              <dt>URL</dt>
              <dd>{e.url}</dd>
            </div>
            <div>
              <dt>Event types</dt>
              <dd>{e.event_types.join(', ')}</dd>
            </div>
            <div>
              <dt>Enabled</dt>
              <dd>{e.enabled ? 'Enabled' : 'Disabled'}</dd>
            </div>
          </dl>
          <div className="actions">
            <button type="button" onClick={() => void toggle()}>
              {e.enabled ? 'Disable' : 'Enable'}
            </button>
            <button type="button" onClick={() => void rotate()}>
              Rotate secret
            </button>
            <button type="button" onClick={() => void test()}>
              Send test event
            </button>
          </div>
        </>
      )}
      <h2>Deliveries</h2>
      <ProblemMessage error={deliveries.error} />
      <div className="table-wrap">
        <table>
          <thead>
            <tr>
              <th scope="col">Event</th>
              <th scope="col">Status</th>
              <th scope="col">Attempts</th>
              <th scope="col">Last error</th>
              <th scope="col">Created</th>
              <th scope="col">Actions</th>
            </tr>
          </thead>
          <tbody>
            {deliveries.items.map((d) => (
              <tr key={d.event_id}>
                <th scope="row">{d.type}</th>
                <td>{d.status}</td>
                <td>{d.attempts}</td>
                <td>{d.last_error ?? '—'}</td>
                <td>
                  <Time at={d.created_at} />
                </td>
                <td>
                  {d.status === 'failed' && (
                    <button
                      type="button"
                      onClick={() => void retry(d.event_id)}
                      aria-label={`Retry ${d.type} ${d.event_id}`}
                    >
                      Retry
                    </button>
                  )}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      <ListFooter pages={deliveries} empty="No deliveries yet." />
    </Page>
  );
}
