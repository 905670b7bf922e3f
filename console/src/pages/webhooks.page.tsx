import { useState } from 'react';
import { Link } from 'react-router';
import {
  DEVICE_EVENT_TYPES,
  FULFILMENT_DEVICE_EVENT_TYPES,
  SUBSCRIPTION_EVENT_TYPES,
} from '../../../src/outgoing-webhook/outgoing-webhook.types';
import { api, type Schemas } from '../api/client';
import { data } from '../api/problem';
import { Dialog, Field } from '../ui/dialog';
import { fieldText } from '../ui/form';
import { Page } from '../ui/page';
import { ProblemMessage } from '../ui/problem-message';
import { Time } from '../ui/time';
import { useLoad } from '../ui/use-load';
import { SecretOnce } from './webhooks.secret';

type EventType = Schemas['CreateWebhookEndpointDto']['event_types'] extends (infer T)[] | undefined
  ? T
  : never;

/** The organization's webhook endpoints; a new one's secret is shown once. */
export function WebhooksPage() {
  const endpoints = useLoad(() => data(api.GET('/api/v1/webhook-endpoints')), []);
  const [adding, setAdding] = useState(false);
  const [secret, setSecret] = useState<{ url: string; secret: string }>();
  return (
    <Page
      title="Webhooks"
      actions={
        <button type="button" className="primary" onClick={() => setAdding(true)}>
          Add endpoint
        </button>
      }
    >
      {secret && (
        <SecretOnce
          url={secret.url}
          secret={secret.secret}
          onDismiss={() => setSecret(undefined)}
        />
      )}
      <ProblemMessage error={endpoints.error} />
      <div className="table-wrap">
        <table>
          <thead>
            <tr>
              <th scope="col">URL</th>
              <th scope="col">Event types</th>
              <th scope="col">Enabled</th>
              <th scope="col">Created</th>
            </tr>
          </thead>
          <tbody>
            {(endpoints.value?.items ?? []).map((e) => (
              <tr key={e.id}>
                <th scope="row">
                  <Link to={`/webhooks/${e.id}`}>{e.url}</Link>
                </th>
                <td>{e.event_types.join(', ')}</td>
                <td>{e.enabled ? 'Enabled' : 'Disabled'}</td>
                <td>
                  <Time at={e.created_at} />
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      {endpoints.value?.items.length === 0 && <p>No endpoints yet.</p>}
      {adding && (
        <AddEndpointDialog
          onClose={() => setAdding(false)}
          onAdded={(created) => {
            setSecret({ url: created.url, secret: created.secret });
            endpoints.reload();
          }}
        />
      )}
    </Page>
  );
}

/** Every type an endpoint may ask for, from the service's own list. */
const EVENT_TYPES: readonly EventType[] = [
  ...SUBSCRIPTION_EVENT_TYPES,
  ...DEVICE_EVENT_TYPES,
  ...FULFILMENT_DEVICE_EVENT_TYPES,
];

function AddEndpointDialog(props: {
  onClose: () => void;
  onAdded: (created: Schemas['WebhookEndpointCreatedDto']) => void;
}) {
  async function add(form: FormData) {
    const types = form.getAll('event_types').map(String) as EventType[];
    const created = await data(
      api.POST('/api/v1/webhook-endpoints', {
        body: {
          url: fieldText(form, 'url'),
          ...(types.length > 0 ? { event_types: types } : {}),
        },
      }),
    );
    props.onAdded(created);
  }
  return (
    <Dialog title="Add endpoint" action="Add" onClose={props.onClose} onSubmit={add}>
      <Field label="URL" name="url" type="url" required hint="https:// in production" />
      <fieldset>
        <legend>Event types</legend>
        <p className="hint">None ticked: every type your organization may receive.</p>
        <div className="checks">
          {EVENT_TYPES.map((t) => (
            <label key={t}>
              <input type="checkbox" name="event_types" value={t} /> {t}
            </label>
          ))}
        </div>
      </fieldset>
    </Dialog>
  );
}
