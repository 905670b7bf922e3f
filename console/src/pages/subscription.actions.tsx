import { useId, useState } from 'react';
import { api } from '../api/client';
import { ApiError, data } from '../api/problem';
import { fieldText } from '../ui/form';
import { Dialog, Field } from '../ui/dialog';
import { useLoad } from '../ui/use-load';

/** Why a record cannot be erased, in the operator's words, from the 409's detail. */
function erasureRefusal(err: unknown): unknown {
  if (!(err instanceof ApiError) || err.status !== 409) return err;
  return new ApiError(409, {
    title: 'This record cannot be erased now',
    detail: err.problem.detail ?? 'It is still paid: cancel it at the processor first.',
  });
}

/**
 * Ship a device to this home: any id can be typed (or scanned); the suggestions are the
 * organization's active devices no live record holds, the first 200 of them.
 */
export function ShipDeviceDialog(props: {
  id: string;
  onClose: () => void;
  onDone: (m: string) => void;
}) {
  const devices = useLoad(
    () =>
      data(
        api.GET('/api/v1/subscriptions/shippable-devices', { params: { query: { limit: 200 } } }),
      ),
    [],
  );
  const listId = useId();
  async function ship(form: FormData) {
    const carrier = fieldText(form, 'carrier');
    const tracking = fieldText(form, 'tracking_number');
    await data(
      api.PUT('/api/v1/subscriptions/{id}/device', {
        params: { path: { id: props.id } },
        body: {
          device_id: fieldText(form, 'device_id'),
          ...(carrier ? { carrier } : {}),
          ...(tracking ? { tracking_number: tracking } : {}),
        },
      }),
    );
    props.onDone('The device is recorded as shipped.');
  }
  const free = devices.value?.items ?? [];
  const hint =
    devices.error !== undefined
      ? 'The free devices could not be listed; type the device ID.'
      : `${free.length}${devices.value?.next_cursor ? '+' : ''} free devices; type or pick one.`;
  return (
    <Dialog title="Ship device" action="Ship" onClose={props.onClose} onSubmit={ship}>
      <Field label="Device" name="device_id" required hint={hint} list={listId} />
      <datalist id={listId}>
        {free.map((d) => (
          <option key={d.device_id} value={d.device_id}>
            {d.model}
          </option>
        ))}
      </datalist>
      <Field label="Carrier" name="carrier" />
      <Field label="Tracking number" name="tracking_number" />
    </Dialog>
  );
}

/** Erase the record's personal data, once the word ERASE is typed. */
export function EraseDialog(props: {
  id: string;
  onClose: () => void;
  onDone: (m: string) => void;
}) {
  const [typed, setTyped] = useState('');
  async function erase() {
    try {
      await data(
        api.POST('/api/v1/subscriptions/{id}/erase', { params: { path: { id: props.id } } }),
      );
    } catch (err) {
      throw erasureRefusal(err);
    }
    props.onDone('The personal data of this record is erased.');
  }
  return (
    <Dialog
      title="Erase this record?"
      action="Erase"
      danger
      ready={typed === 'ERASE'}
      onClose={props.onClose}
      onSubmit={erase}
    >
      <p>
        Its personal data is destroyed for good, here and in every copy the service keeps; the
        fulfilment integrations are told to delete theirs.
      </p>
      <Field label="Type ERASE to confirm" name="confirm" required onChange={setTyped} />
    </Dialog>
  );
}

/** The record's export (what is stored, who received it, who looked) as a JSON download. */
export async function exportRecord(id: string): Promise<void> {
  const body = await data(
    api.GET('/api/v1/subscriptions/{id}/export', { params: { path: { id } } }),
  );
  const url = URL.createObjectURL(
    new Blob([JSON.stringify(body, null, 2)], { type: 'application/json' }),
  );
  try {
    const a = document.createElement('a');
    a.href = url;
    a.download = `subscription-${id}.json`;
    a.click();
  } finally {
    setTimeout(() => URL.revokeObjectURL(url), 1000);
  }
}
