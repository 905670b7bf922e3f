import { useState } from 'react';
import { Link, useParams } from 'react-router';
import { api, type Schemas } from '../api/client';
import { data } from '../api/problem';
import { useSignedIn } from '../auth/session';
import { careLabel, label, SUBSCRIPTION_STATUS_LABELS } from '../ui/labels';
import { Page } from '../ui/page';
import { ProblemMessage } from '../ui/problem-message';
import { Time } from '../ui/time';
import { useLoad } from '../ui/use-load';
import { EraseDialog, exportRecord, ShipDeviceDialog } from './subscription.actions';

type Detail = Schemas['SubscriptionDetailDto'];
const BILLED = ['paid', 'past_due'];

/** One record with its personal data: opening it is an audit event (subscription.viewed). */
export function SubscriptionPage() {
  const { id = '' } = useParams();
  const { user } = useSignedIn();
  const admin = user.role === 'admin';
  const record = useLoad(
    () => data(api.GET('/api/v1/subscriptions/{id}', { params: { path: { id } } })),
    [id],
  );
  const [dialog, setDialog] = useState<'ship' | 'erase'>();
  const [notice, setNotice] = useState<string>();
  const [failure, setFailure] = useState<unknown>();
  const r = record.value;

  const done = (message: string) => {
    setNotice(message);
    record.reload();
  };

  async function download() {
    setFailure(undefined);
    try {
      await exportRecord(id);
      setNotice('The export was downloaded; it is recorded in the audit trail.');
    } catch (err) {
      setFailure(err);
    }
  }

  return (
    <Page
      title="Subscription"
      actions={
        r && (
          <>
            {!r.erased_at && BILLED.includes(r.status) && (
              <button type="button" className="primary" onClick={() => setDialog('ship')}>
                Ship device
              </button>
            )}
            {admin && (
              <button type="button" onClick={() => void download()}>
                Export
              </button>
            )}
            {admin && !r.erased_at && (
              <button type="button" className="danger" onClick={() => setDialog('erase')}>
                Erase
              </button>
            )}
          </>
        )
      }
    >
      <p>
        <Link to="/subscriptions">All subscriptions</Link>
      </p>
      <p className="note">Opening this record is recorded in the audit trail, with your name.</p>
      {notice && <p role="status">{notice}</p>}
      <ProblemMessage error={record.error ?? failure} />
      {record.loading && !r && <p role="status">Loading…</p>}
      {r && <Record r={r} />}
      {r && dialog === 'ship' && (
        <ShipDeviceDialog id={id} onClose={() => setDialog(undefined)} onDone={done} />
      )}
      {r && dialog === 'erase' && (
        <EraseDialog id={id} onClose={() => setDialog(undefined)} onDone={done} />
      )}
    </Page>
  );
}

function Record({ r }: { r: Detail }) {
  return (
    <>
      <dl className="facts">
        <Fact name="Status">{label(SUBSCRIPTION_STATUS_LABELS, r.status)}</Fact>
        <Fact name="Created">
          <Time at={r.created_at} />
        </Fact>
        <Fact name="Paid">
          <Time at={r.paid_at} />
        </Fact>
        <Fact name="Canceled">
          <Time at={r.canceled_at} />
        </Fact>
        {r.erased_at && (
          <Fact name="Erased">
            <Time at={r.erased_at} />
          </Fact>
        )}
        <Fact name="Coupon">{r.coupon ?? '—'}</Fact>
      </dl>
      <h2>Customer</h2>
      <dl className="facts">
        <Fact name="Name">{r.customer.name ?? '—'}</Fact>
        <Fact name="Email">{r.customer.email ?? '—'}</Fact>
        <Fact name="Phone">{r.customer.phone ?? '—'}</Fact>
      </dl>
      <h2>Care recipient</h2>
      <dl className="facts">
        <Fact name="Name">{r.recipient.name ?? '—'}</Fact>
        <Fact name="Living situation">{careLabel(r.recipient.living_situation)}</Fact>
        <Fact name="Main concern">{careLabel(r.recipient.primary_concern)}</Fact>
        <Fact name="ZIP">{r.recipient.zip ?? '—'}</Fact>
      </dl>
      <h2>Shipping</h2>
      <dl className="facts">
        <Fact name="Name">{r.shipping.name ?? '—'}</Fact>
        <Fact name="Address">{r.shipping.address ?? '—'}</Fact>
      </dl>
      <h2>Device</h2>
      {r.device ? (
        <dl className="facts">
          <Fact name="Device">{r.device.device_id}</Fact>
          <Fact name="Shipped">
            <Time at={r.device.assigned_at} />
          </Fact>
          <Fact name="Carrier">{r.device.carrier ?? '—'}</Fact>
          <Fact name="Tracking number">{r.device.tracking_number ?? '—'}</Fact>
          <Fact name="First contact">
            <Time at={r.device.activated_at} empty="Not yet" />
          </Fact>
        </dl>
      ) : (
        <p>No device shipped yet.</p>
      )}
      <h2>History</h2>
      <div className="table-wrap">
        <table>
          <thead>
            <tr>
              <th scope="col">Received</th>
              <th scope="col">Change</th>
              <th scope="col">Event</th>
              <th scope="col">Source</th>
            </tr>
          </thead>
          <tbody>
            {r.history.map((h) => (
              <tr key={h.event_id}>
                <td>
                  <Time at={h.received_at} />
                </td>
                <td>
                  {label(SUBSCRIPTION_STATUS_LABELS, h.from)} →{' '}
                  {label(SUBSCRIPTION_STATUS_LABELS, h.to)}
                </td>
                <td>{h.type}</td>
                <td>{h.source === 'webhook' ? 'Processor webhook' : 'Reconcile pass'}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </>
  );
}

function Fact({ name, children }: { name: string; children: React.ReactNode }) {
  return (
    <div>
      <dt>{name}</dt>
      <dd>{children}</dd>
    </div>
  );
}
