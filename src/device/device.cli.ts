import { createPublicKey } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { CliCommand, CliNeeds, dtoFrom, ORG_FLAG, PAGE_FLAGS, str } from '../cli/cli-command';
import { Organization } from '../org/organization.entity';
import { OrgService } from '../org/org.service';
import { CreateDeviceDto } from './create-device.dto';
import { DeviceAudit } from './device-audit';
import { Device } from './device.entity';
import { DeviceService } from './device.service';
import { ListDevicesDto } from './list-devices.dto';
import { AuditLog } from '../common/logging/audit-log';
import { EventOutbox } from '../outgoing-webhook/event-outbox.service';
import { DeliveryWake } from '../outgoing-webhook/delivery-wake.service';

/** DeviceService and what it calls; not DeviceModule, whose OrgModule brings a controller's guards. */
const DEVICES: CliNeeds = {
  entities: [Device, Organization],
  providers: [DeviceService, DeviceAudit, AuditLog, OrgService, EventOutbox, DeliveryWake],
};

export const deviceCommands: Record<string, CliCommand> = {
  'device:add': {
    summary: 'Register a device in an organization',
    usage:
      'device:add --org ID --device-id D --model M --provider P [--public-key-file F (JWK or PEM)]',
    options: {
      org: ORG_FLAG,
      'device-id': { type: 'string', required: true, help: 'canonical: a-z 0-9 . _ : -' },
      model: { type: 'string', required: true, help: 'the model it will sign in with' },
      provider: { type: 'string', required: true, help: 'the provider it will sign in with' },
      'public-key-file': {
        type: 'string',
        help: 'its public key, a JWK or a PEM file; it must then prove it holds the private key',
      },
    },
    needs: DEVICES,
    prepare: async (args) => {
      const keyFile = str(args, 'public-key-file');
      const key = keyFile ? { public_key: await readPublicKey(keyFile) } : {};
      const body = await dtoFrom(CreateDeviceDto, args, ['device-id', 'model', 'provider'], key);
      const { device_id: deviceId, model, provider, public_key: publicKey } = body;
      return async (app) => {
        const input = { deviceId, model, provider, publicKey };
        const device = await app.get(DeviceService).register(str(args, 'org'), input, CLI_ACTOR);
        return DeviceService.self(device);
      };
    },
  },
  'device:list': {
    summary: "List an organization's devices by device id, a page at a time",
    usage: 'device:list --org ID [--limit N] [--cursor C]',
    options: { org: ORG_FLAG, ...PAGE_FLAGS },
    needs: DEVICES,
    prepare: async (args) => {
      const page = await dtoFrom(ListDevicesDto, args, ['limit', 'cursor']);
      return async (app) => {
        const org = await app.get(OrgService).get(str(args, 'org'));
        return app.get(DeviceService).list(org.id, page);
      };
    },
  },
};

const CLI_ACTOR = { actor: 'cli' };

/**
 * A public key file: a JWK (JSON), or a PEM public key as `openssl` writes it, as a plain object.
 * The DTO's `public_key` rules check it then (so a private key is refused), the service after.
 */
async function readPublicKey(path: string): Promise<object> {
  const text = await readFile(path, 'utf8');
  if (text.trimStart().startsWith('-----BEGIN')) {
    if (/PRIVATE KEY-----/.test(text)) throw new Error(`${path} holds a private key`);
    return createPublicKey(text).export({ format: 'jwk' });
  }
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch {
    throw new Error(`${path} is neither a JWK (JSON) nor a PEM public key`);
  }
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) {
    throw new Error(`${path} does not hold a JWK object`);
  }
  return raw;
}
