import { CliCommand, str } from '../cli/cli-command';
import { OrgService } from './org.service';

export const orgCommands: Record<string, CliCommand> = {
  'org:create': {
    usage: 'org:create --name N',
    options: { name: { type: 'string', required: true } },
    run: async (app, args) => OrgService.view(await app.get(OrgService).create(str(args, 'name'))),
  },
};
