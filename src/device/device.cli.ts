import { createPublicKey } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import {
  CliCommand,
  CliRefusal,
  dtoFrom,
  ORG_FLAG,
  PAGE_FLAGS,
  str,
} from '../common/cli/cli-command';
import { OrgService } from '../org/org.service';
import { CreateDeviceDto } from './registry/create-device.dto';
import { DeviceModule } from './device.module';
import { DeviceBatch } from './batch/device-batch.service';
import { readDeviceCsv } from './batch/device-import';
import { DeviceLiveness } from './liveness/device-liveness.service';
import { DeviceService } from './registry/device.service';
import { DeviceListDto, DeviceSelfDto, DeviceSummaryDto } from './registry/device-view.dto';
import { DeviceSummaryService } from './liveness/device-summary.service';
import { ListDevicesDto } from './registry/list-devices.dto';

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
    module: DeviceModule,
    prepare: async (args) => {
      const keyFile = str(args, 'public-key-file');
      const key = keyFile ? { public_key: await readPublicKey(keyFile) } : {};
      const body = await dtoFrom(CreateDeviceDto, args, ['device-id', 'model', 'provider'], key);
      const { device_id: deviceId, model, provider, public_key: publicKey } = body;
      return async (app) => {
        const input = { deviceId, model, provider, publicKey };
        const device = await app.get(DeviceService).register(str(args, 'org'), input, CLI_ACTOR);
        return DeviceSelfDto.from(device);
      };
    },
  },
  'device:import': {
    summary:
      'Register the devices of a CSV file in an organization, all or nothing (at most 1 000)',
    usage: 'device:import --org ID --file devices.csv (columns device_id,model,provider)',
    options: {
      org: ORG_FLAG,
      file: { type: 'string', required: true, help: 'a CSV file with a header line, UTF-8' },
    },
    module: DeviceModule,
    prepare: async (args) => {
      const items = await readDeviceCsv(str(args, 'file'));
      return async (app) => {
        const result = await app.get(DeviceBatch).register(str(args, 'org'), items, CLI_ACTOR);
        if (result.errors.length === 0) return result;
        return new CliRefusal(result, `${result.errors.length} rows refused: nothing imported`);
      };
    },
  },
  'device:list': {
    summary: "List an organization's devices by device id, a page at a time",
    usage: 'device:list --org ID [--health online|offline|never_seen] [--limit N] [--cursor C]',
    options: {
      org: ORG_FLAG,
      health: { type: 'string', help: 'only devices in this health' },
      ...PAGE_FLAGS,
    },
    module: DeviceModule,
    prepare: async (args) => {
      const page = await dtoFrom(ListDevicesDto, args, ['limit', 'cursor', 'health']);
      return async (app) => {
        const org = await app.get(OrgService).get(str(args, 'org'));
        return DeviceListDto.from(await app.get(DeviceService).list(org.id, page));
      };
    },
  },
  'device:summary': {
    summary: "Count an organization's active devices by health, and those with a low battery",
    usage: 'device:summary --org ID',
    options: { org: ORG_FLAG },
    module: DeviceModule,
    // Prints what GET /api/v1/devices/summary answers: {"online","offline","never_seen","battery_low"}.
    prepare: (args) =>
      Promise.resolve(async (app) => {
        const org = await app.get(OrgService).get(str(args, 'org'));
        return DeviceSummaryDto.from(await app.get(DeviceSummaryService).of(org.id));
      }),
  },
  'device:liveness': {
    summary: 'Run the liveness pass once: device.offline for each device gone quiet',
    usage: 'device:liveness',
    options: {},
    module: DeviceModule,
    // Prints {"offline","batches","ms"}; the bench reads exactly that.
    prepare: () => Promise.resolve((app) => app.get(DeviceLiveness).runOnce()),
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
