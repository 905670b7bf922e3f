import { api, type Schemas } from '../api/client';
import { ApiError, data } from '../api/problem';
import { fieldText } from '../ui/form';
import { Dialog, Field } from '../ui/dialog';

/** Register one device; its public key (a JWK, JSON) is optional. */
export function RegisterDeviceDialog(props: {
  onClose: () => void;
  onDone: (message: string) => void;
}) {
  async function register(form: FormData) {
    const key = fieldText(form, 'public_key');
    let publicKey: Schemas['CreateDeviceDto']['public_key'];
    if (key) {
      try {
        publicKey = JSON.parse(key) as Schemas['CreateDeviceDto']['public_key'];
      } catch {
        throw new ApiError(400, {
          title: 'The public key is not JSON',
          detail: 'Paste it as a JWK.',
        });
      }
    }
    const device = await data(
      api.POST('/api/v1/devices', {
        body: {
          device_id: fieldText(form, 'device_id'),
          model: fieldText(form, 'model'),
          provider: fieldText(form, 'provider'),
          ...(publicKey ? { public_key: publicKey } : {}),
        },
      }),
    );
    props.onDone(`Device ${device.device_id} registered.`);
  }
  return (
    <Dialog title="Register device" action="Register" onClose={props.onClose} onSubmit={register}>
      <Field
        label="Device ID"
        name="device_id"
        required
        hint="Letters, digits and . _ : - (at most 128)"
      />
      <Field label="Model" name="model" required />
      <Field label="Provider" name="provider" required />
      <Field
        label="Public key"
        name="public_key"
        multiline
        hint="Optional: the device's public key as a JWK"
      />
    </Dialog>
  );
}

/** Deactivate one device, after a confirmation: its tokens stop working. */
export function DeactivateDialog(props: {
  device: Schemas['DeviceListItemDto'];
  onClose: () => void;
  onDone: (message: string) => void;
}) {
  const id = props.device.device_id;
  async function deactivate() {
    await data(api.DELETE('/api/v1/devices/{device_id}', { params: { path: { device_id: id } } }));
    props.onDone(`Device ${id} deactivated.`);
  }
  return (
    <Dialog
      title={`Deactivate ${id}?`}
      action="Deactivate"
      danger
      onClose={props.onClose}
      onSubmit={deactivate}
    >
      <p>The device can no longer sign in; its current token stops working at once.</p>
    </Dialog>
  );
}
