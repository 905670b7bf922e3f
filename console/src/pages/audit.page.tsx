import { type FormEvent } from 'react';
import { useSearchParams } from 'react-router';
import { api } from '../api/client';
import { data } from '../api/problem';
import { fieldText } from '../ui/form';
import { Page } from '../ui/page';
import { ProblemMessage } from '../ui/problem-message';
import { Time } from '../ui/time';
import { ListFooter } from '../ui/list-footer';
import { usePages } from '../ui/use-pages';

const FILTERS = [
  { name: 'action', label: 'Action', hint: 'e.g. subscription.viewed' },
  { name: 'actor_id', label: 'Actor ID', hint: 'An account or device id' },
  { name: 'subject_id', label: 'Subject ID', hint: 'A record, account or device id' },
  { name: 'since', label: 'Since', hint: 'A date, e.g. 2026-12-01' },
] as const;

/** Who did what: the audit events of the organization, newest first, filters in the URL. */
export function AuditPage() {
  const [params, setParams] = useSearchParams();
  const query = Object.fromEntries(
    FILTERS.map((f) => [f.name, params.get(f.name) || undefined]),
  ) as Record<(typeof FILTERS)[number]['name'], string | undefined>;
  const key = JSON.stringify(query);
  const pages = usePages(
    (cursor) => data(api.GET('/api/v1/audit-events', { params: { query: { ...query, cursor } } })),
    [key],
  );

  function filter(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    const next = new URLSearchParams();
    for (const f of FILTERS) {
      const value = fieldText(form, f.name);
      if (value) next.set(f.name, value);
    }
    setParams(next);
  }

  return (
    <Page title="Audit">
      <form className="filters" onSubmit={filter} key={key}>
        {FILTERS.map((f) => (
          <div className="field" key={f.name}>
            <label htmlFor={`audit-${f.name}`}>{f.label}</label>
            <input
              id={`audit-${f.name}`}
              name={f.name}
              defaultValue={query[f.name]}
              placeholder={f.hint}
            />
          </div>
        ))}
        <button type="submit">Filter</button>
      </form>
      <ProblemMessage error={pages.error} />
      <div className="table-wrap">
        <table>
          <thead>
            <tr>
              <th scope="col">When</th>
              <th scope="col">Action</th>
              <th scope="col">Actor</th>
              <th scope="col">Subject</th>
              <th scope="col">Address</th>
              <th scope="col">Request</th>
            </tr>
          </thead>
          <tbody>
            {pages.items.map((e) => (
              <tr key={e.id}>
                <td>
                  <Time at={e.occurred_at} />
                </td>
                <th scope="row">{e.action}</th>
                <td>
                  {e.actor.type}
                  {e.actor.id ? ` ${e.actor.id}` : ''}
                </td>
                <td>{e.subject ? `${e.subject.type} ${e.subject.id}` : '—'}</td>
                <td>{e.ip ?? '—'}</td>
                <td>{e.request_id ?? '—'}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      <ListFooter pages={pages} empty="No events match." />
    </Page>
  );
}
