import { useState } from 'react';
import { useSearchParams } from 'react-router';
import { api, type Schemas } from '../api/client';
import { data } from '../api/problem';
import { useSignedIn } from '../auth/session';
import { HEALTH_LABELS, label } from '../ui/labels';
import { Page } from '../ui/page';
import { ProblemMessage } from '../ui/problem-message';
import { Time } from '../ui/time';
import { ListFooter } from '../ui/list-footer';
import { usePages } from '../ui/use-pages';
import { DeactivateDialog, RegisterDeviceDialog } from './devices.dialogs';
import { useCsvImport } from './devices.import';

type Health = keyof typeof HEALTH_LABELS;
type Device = Schemas['DeviceListItemDto'];
const isHealth = (v: string | null): v is Health => v !== null && v in HEALTH_LABELS;

/** The organization's devices, 200 a page, filtered by health in the URL (a link can be shared). */
export function DevicesPage() {
  const { user } = useSignedIn();
  const admin = user.role === 'admin';
  const [params, setParams] = useSearchParams();
  const raw = params.get('health');
  const health = isHealth(raw) ? raw : undefined;
  const [dialog, setDialog] = useState<'register' | Device>();
  const [notice, setNotice] = useState<string>();

  const pages = usePages(
    (cursor) =>
      data(api.GET('/api/v1/devices', { params: { query: { limit: 200, cursor, health } } })),
    [health],
  );

  const done = (message: string) => {
    setNotice(message);
    pages.reload();
  };
  const csv = useCsvImport(done);

  return (
    <Page
      title="Devices"
      actions={
        admin && (
          <>
            <button type="button" className="primary" onClick={() => setDialog('register')}>
              Register device
            </button>
            {csv.button}
          </>
        )
      }
    >
      <div className="filters">
        <label htmlFor="health-filter">Health</label>
        <select
          id="health-filter"
          value={health ?? ''}
          onChange={(e) => setParams(e.target.value ? { health: e.target.value } : {})}
        >
          <option value="">All</option>
          {Object.entries(HEALTH_LABELS).map(([value, text]) => (
            <option key={value} value={value}>
              {text}
            </option>
          ))}
        </select>
      </div>
      {notice && <p role="status">{notice}</p>}
      {csv.report}
      <ProblemMessage error={pages.error} />
      <div className="table-wrap">
        <table>
          <caption className="visually-hidden">Devices of your organization</caption>
          <thead>
            <tr>
              <th scope="col">Device</th>
              <th scope="col">Model</th>
              <th scope="col">Health</th>
              <th scope="col">Last contact</th>
              <th scope="col">Battery</th>
              <th scope="col">Firmware</th>
              {admin && <th scope="col">Actions</th>}
            </tr>
          </thead>
          <tbody>
            {pages.items.map((d) => (
              <tr key={d.device_id}>
                <th scope="row">{d.device_id}</th>
                <td>{d.model}</td>
                <td>
                  <span className={`health ${d.health}`}>{label(HEALTH_LABELS, d.health)}</span>
                  {d.status === 'deactivated' && <span> (deactivated)</span>}
                </td>
                <td>
                  <Time at={d.last_seen_at} empty="Never" />
                </td>
                <td>{d.battery_pct === null ? '—' : `${d.battery_pct} %`}</td>
                <td>{d.firmware_version ?? '—'}</td>
                {admin && (
                  <td>
                    {d.status === 'active' && (
                      <button
                        type="button"
                        onClick={() => setDialog(d)}
                        aria-label={`Deactivate ${d.device_id}`}
                      >
                        Deactivate
                      </button>
                    )}
                  </td>
                )}
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      <ListFooter pages={pages} empty="No devices here yet." />
      {dialog === 'register' && (
        <RegisterDeviceDialog onClose={() => setDialog(undefined)} onDone={done} />
      )}
      {dialog !== undefined && dialog !== 'register' && (
        <DeactivateDialog device={dialog} onClose={() => setDialog(undefined)} onDone={done} />
      )}
    </Page>
  );
}
