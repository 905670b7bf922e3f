import { type FormEvent } from 'react';
import { Link, useSearchParams } from 'react-router';
import { api } from '../api/client';
import { data } from '../api/problem';
import { label, SUBSCRIPTION_STATUS_LABELS } from '../ui/labels';
import { fieldText } from '../ui/form';
import { Page } from '../ui/page';
import { ProblemMessage } from '../ui/problem-message';
import { Time } from '../ui/time';
import { ListFooter } from '../ui/list-footer';
import { usePages } from '../ui/use-pages';

type Status = keyof typeof SUBSCRIPTION_STATUS_LABELS;
const isStatus = (v: string | null): v is Status => v !== null && v in SUBSCRIPTION_STATUS_LABELS;

/**
 * The subscriptions, without their personal data but the customer's name; filters in the URL.
 * Every page listed is an audit event (subscription.listed), a search one too.
 */
export function SubscriptionsPage() {
  const [params, setParams] = useSearchParams();
  const rawStatus = params.get('status');
  const status = isStatus(rawStatus) ? rawStatus : undefined;
  const email = params.get('email') ?? undefined;
  const awaiting = params.get('awaiting_device') === 'true' ? true : undefined;

  const pages = usePages(
    (cursor) =>
      data(
        api.GET('/api/v1/subscriptions', {
          params: { query: { limit: 50, cursor, status, email, awaiting_device: awaiting } },
        }),
      ),
    [status, email, awaiting],
  );

  function set(name: string, value: string | undefined) {
    const next = new URLSearchParams(params);
    if (value) next.set(name, value);
    else next.delete(name);
    setParams(next);
  }

  function search(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const value = fieldText(new FormData(event.currentTarget), 'email');
    set('email', value || undefined);
  }

  return (
    <Page title="Subscriptions">
      <div className="filters">
        <label htmlFor="status-filter">Status</label>
        <select
          id="status-filter"
          value={status ?? ''}
          onChange={(e) => set('status', e.target.value || undefined)}
        >
          <option value="">All</option>
          {Object.entries(SUBSCRIPTION_STATUS_LABELS).map(([value, text]) => (
            <option key={value} value={value}>
              {text}
            </option>
          ))}
        </select>
        <form role="search" onSubmit={search} className="inline">
          <label htmlFor="email-search">Email</label>
          <input id="email-search" name="email" type="email" defaultValue={email} key={email} />
          <button type="submit">Search</button>
        </form>
        {awaiting && (
          <button type="button" onClick={() => set('awaiting_device', undefined)}>
            Show all, not only those waiting for a device
          </button>
        )}
      </div>
      <ProblemMessage error={pages.error} />
      <div className="table-wrap">
        <table>
          <caption className="visually-hidden">Subscriptions</caption>
          <thead>
            <tr>
              <th scope="col">Customer</th>
              <th scope="col">Status</th>
              <th scope="col">Created</th>
              <th scope="col">Paid</th>
              <th scope="col">Coupon</th>
            </tr>
          </thead>
          <tbody>
            {pages.items.map((s) => (
              <tr key={s.id}>
                <th scope="row">
                  <Link to={`/subscriptions/${s.id}`}>
                    {s.erased_at ? 'Erased record' : (s.customer.name ?? 'No name yet')}
                  </Link>
                </th>
                <td>{label(SUBSCRIPTION_STATUS_LABELS, s.status)}</td>
                <td>
                  <Time at={s.created_at} />
                </td>
                <td>
                  <Time at={s.paid_at} />
                </td>
                <td>{s.coupon ?? '—'}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      <ListFooter pages={pages} empty="No subscriptions match." />
    </Page>
  );
}
