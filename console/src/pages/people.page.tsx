import { useState } from 'react';
import { api, type Schemas } from '../api/client';
import { data } from '../api/problem';
import { useSignedIn } from '../auth/session';
import { Dialog, Field } from '../ui/dialog';
import { label, ROLE_LABELS } from '../ui/labels';
import { fieldText } from '../ui/form';
import { Page } from '../ui/page';
import { ProblemMessage } from '../ui/problem-message';
import { useAction } from '../ui/use-action';
import { useLoad } from '../ui/use-load';

type Role = keyof typeof ROLE_LABELS;
type Person = Schemas['UserListItem'];

/** The organization's accounts: add one, change a role, disable, end someone's sessions. */
export function PeoplePage() {
  const { user: me } = useSignedIn();
  const people = useLoad(() => data(api.GET('/api/v1/users')), []);
  const [adding, setAdding] = useState(false);
  const action = useAction(() => people.reload());
  const act = action.run;
  const path = (p: Person) => ({ params: { path: { id: p.id } } });
  const setRole = (p: Person, role: Role) =>
    act(async () => {
      await data(api.PATCH('/api/v1/users/{id}', { ...path(p), body: { role } }));
      return `${p.email} is now ${label(ROLE_LABELS, role).toLowerCase()}.`;
    });
  const setDisabled = (p: Person, disabled: boolean) =>
    act(async () => {
      await data(api.PATCH('/api/v1/users/{id}', { ...path(p), body: { disabled } }));
      return disabled ? `${p.email} is disabled and signed out.` : `${p.email} may sign in again.`;
    });
  const endSessions = (p: Person) =>
    act(async () => {
      const { revoked } = await data(api.POST('/api/v1/users/{id}/revoke-sessions', path(p)));
      return `${revoked} ${revoked === 1 ? 'session' : 'sessions'} of ${p.email} ended.`;
    });

  return (
    <Page
      title="People"
      actions={
        <button type="button" className="primary" onClick={() => setAdding(true)}>
          Add person
        </button>
      }
    >
      {action.notice && <p role="status">{action.notice}</p>}
      <ProblemMessage error={people.error ?? action.failure} />
      <div className="table-wrap">
        <table>
          <thead>
            <tr>
              <th scope="col">Email</th>
              <th scope="col">Name</th>
              <th scope="col">Role</th>
              <th scope="col">Account</th>
              <th scope="col">Actions</th>
            </tr>
          </thead>
          <tbody>
            {(people.value?.items ?? []).map((p) => (
              <tr key={p.id}>
                <th scope="row">{p.email}</th>
                <td>{p.name ?? '—'}</td>
                <td>
                  <select
                    aria-label={`Role of ${p.email}`}
                    value={p.role}
                    disabled={p.id === me.id}
                    onChange={(e) => void setRole(p, e.target.value as Role)}
                  >
                    {Object.entries(ROLE_LABELS).map(([value, text]) => (
                      <option key={value} value={value}>
                        {text}
                      </option>
                    ))}
                  </select>
                </td>
                <td>{p.disabled ? 'Disabled' : 'Active'}</td>
                <td className="row-actions">
                  {p.id !== me.id && (
                    <button
                      type="button"
                      aria-label={`${p.disabled ? 'Enable' : 'Disable'} ${p.email}`}
                      onClick={() => void setDisabled(p, !p.disabled)}
                    >
                      {p.disabled ? 'Enable' : 'Disable'}
                    </button>
                  )}
                  <button
                    type="button"
                    aria-label={`End sessions of ${p.email}`}
                    onClick={() => void endSessions(p)}
                  >
                    End sessions
                  </button>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      {adding && (
        <AddPersonDialog
          onClose={() => setAdding(false)}
          onAdded={(email) => void act(() => Promise.resolve(`${email} can now sign in.`))}
        />
      )}
    </Page>
  );
}

function AddPersonDialog(props: { onClose: () => void; onAdded: (email: string) => void }) {
  async function add(form: FormData) {
    const name = fieldText(form, 'name');
    const created = await data(
      api.POST('/api/v1/users', {
        body: {
          email: fieldText(form, 'email'),
          role: form.get('role') === 'admin' ? 'admin' : 'member',
          ...(name ? { name } : {}),
        },
      }),
    );
    props.onAdded(created.email);
  }
  return (
    <Dialog title="Add person" action="Add" onClose={props.onClose} onSubmit={add}>
      <Field label="Email" name="email" type="email" required />
      <Field label="Name" name="name" />
      <div className="field">
        <label htmlFor="new-role">Role</label>
        <select id="new-role" name="role" defaultValue="member">
          {Object.entries(ROLE_LABELS).map(([value, text]) => (
            <option key={value} value={value}>
              {text}
            </option>
          ))}
        </select>
      </div>
    </Dialog>
  );
}
