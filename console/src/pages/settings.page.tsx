import { type FormEvent } from 'react';
import { api } from '../api/client';
import { data } from '../api/problem';
import { useSession, useSignedIn } from '../auth/session';
import { fieldText } from '../ui/form';
import { Page } from '../ui/page';
import { ProblemMessage } from '../ui/problem-message';
import { Time } from '../ui/time';
import { useAction } from '../ui/use-action';
import { useLoad } from '../ui/use-load';

/** The organization's offline threshold (minutes here, seconds in the API) and one's own sessions. */
export function SettingsPage() {
  const { org } = useSignedIn();
  const { refresh } = useSession();
  const sessions = useLoad(() => data(api.GET('/api/auth/sessions')), []);
  const action = useAction();
  const act = action.run;
  const minutes =
    org.device_offline_after_seconds === null ? '' : String(org.device_offline_after_seconds / 60);

  function saveThreshold(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const raw = fieldText(new FormData(event.currentTarget), 'minutes');
    void act(async () => {
      const seconds = raw === '' ? null : Math.round(Number(raw) * 60);
      await data(api.PATCH('/api/v1/org', { body: { device_offline_after_seconds: seconds } }));
      await refresh();
      return seconds === null
        ? 'Devices use the service default again.'
        : `Devices count as offline after ${raw} minutes without contact.`;
    });
  }

  const endOthers = () =>
    act(async () => {
      const { revoked } = await data(api.POST('/api/auth/sessions/revoke-others'));
      sessions.reload();
      return `${revoked} other ${revoked === 1 ? 'session' : 'sessions'} ended.`;
    });

  return (
    <Page title="Settings">
      {action.notice && <p role="status">{action.notice}</p>}
      <ProblemMessage error={action.failure} />
      <section aria-labelledby="threshold-heading">
        <h2 id="threshold-heading">When a device counts as offline</h2>
        <form onSubmit={saveThreshold} className="inline" key={minutes}>
          <div className="field">
            <label htmlFor="threshold">Minutes without contact</label>
            <input
              id="threshold"
              name="minutes"
              type="number"
              min="1"
              step="any"
              inputMode="decimal"
              defaultValue={minutes}
              aria-describedby="threshold-hint"
            />
            <small id="threshold-hint" className="hint">
              Empty: the service default. Pick at least three times the devices’ heartbeat interval.
            </small>
          </div>
          <button type="submit">Save</button>
        </form>
      </section>
      <section aria-labelledby="sessions-heading">
        <h2 id="sessions-heading">Your sessions</h2>
        <ProblemMessage error={sessions.error} />
        <div className="table-wrap">
          <table>
            <thead>
              <tr>
                <th scope="col">Browser</th>
                <th scope="col">Address</th>
                <th scope="col">Signed in</th>
                <th scope="col">Last used</th>
              </tr>
            </thead>
            <tbody>
              {(sessions.value?.items ?? []).map((s) => (
                <tr key={s.id}>
                  <th scope="row">
                    {s.user_agent ?? 'Unknown'}
                    {s.current ? ' (this one)' : ''}
                  </th>
                  <td>{s.ip ?? '—'}</td>
                  <td>
                    <Time at={s.created_at} />
                  </td>
                  <td>
                    <Time at={s.last_used_at} />
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
        <button type="button" onClick={() => void endOthers()}>
          End other sessions
        </button>
      </section>
    </Page>
  );
}
