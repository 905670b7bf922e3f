import { CliCommand, str } from '../cli/cli-command';
import { DeviceService } from './device.service';

export const deviceCommands: Record<string, CliCommand> = {
  'device:add': {
    usage: 'device:add --org ID --device-id D --model M --provider P',
    options: {
      org: { type: 'string', required: true },
      'device-id': { type: 'string', required: true },
      model: { type: 'string', required: true },
      provider: { type: 'string', required: true },
    },
    run: async (app, args) => {
      const device = await app.get(DeviceService).register(str(args, 'org'), {
        deviceId: str(args, 'device-id'),
        model: str(args, 'model'),
        provider: str(args, 'provider'),
      });
      return DeviceService.self(device);
    },
  },
};
