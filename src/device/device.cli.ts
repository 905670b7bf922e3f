import { createPublicKey } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { plainToInstance } from 'class-transformer';
import { validate } from 'class-validator';
import { CliCommand, str } from '../cli/cli-command';
import { validationExceptionFactory } from '../common/errors/validation.exception-factory';
import { DevicePublicJwkDto } from './device-public-key.dto';
import { DeviceService } from './device.service';

export const deviceCommands: Record<string, CliCommand> = {
  'device:add': {
    usage:
      'device:add --org ID --device-id D --model M --provider P [--public-key-file F (JWK or PEM)]',
    options: {
      org: { type: 'string', required: true },
      'device-id': { type: 'string', required: true },
      model: { type: 'string', required: true },
      provider: { type: 'string', required: true },
      'public-key-file': { type: 'string' },
    },
    run: async (app, args) => {
      const keyFile = str(args, 'public-key-file');
      const device = await app.get(DeviceService).register(
        str(args, 'org'),
        {
          deviceId: str(args, 'device-id'),
          model: str(args, 'model'),
          provider: str(args, 'provider'),
          publicKey: keyFile ? await readPublicKey(keyFile) : undefined,
        },
        { actor: 'cli' },
      );
      return DeviceService.self(device);
    },
  },
};

/**
 * A public key file: a JWK (JSON), or a PEM public key as `openssl` writes it. Checked by the same
 * DTO rules as the API's `public_key` (so a private key is refused), then by the service.
 */
async function readPublicKey(path: string): Promise<DevicePublicJwkDto> {
  const text = await readFile(path, 'utf8');
  let raw: unknown;
  if (text.trimStart().startsWith('-----BEGIN')) {
    if (/PRIVATE KEY-----/.test(text)) throw new Error(`${path} holds a private key`);
    raw = createPublicKey(text).export({ format: 'jwk' });
  } else {
    try {
      raw = JSON.parse(text);
    } catch {
      throw new Error(`${path} is neither a JWK (JSON) nor a PEM public key`);
    }
  }
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) {
    throw new Error(`${path} does not hold a JWK object`);
  }
  const jwk = plainToInstance(DevicePublicJwkDto, raw);
  const errors = await validate(jwk, { whitelist: true, forbidNonWhitelisted: true });
  if (errors.length > 0) {
    const err = validationExceptionFactory(errors);
    for (const e of err.errors ?? []) e.field = `public_key.${e.field}`;
    throw err;
  }
  return jwk;
}
