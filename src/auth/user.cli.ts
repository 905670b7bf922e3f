import { CliCommand, str } from '../cli/cli-command';
import type { Role } from './auth-user';
import { adminUserView } from './user-view.dto';
import { UserService } from './user.service';

export const userCommands: Record<string, CliCommand> = {
  'user:add': {
    usage: 'user:add --org ID --email E --role admin|member [--name N]',
    options: {
      org: { type: 'string', required: true },
      email: { type: 'string', required: true },
      role: { type: 'string', required: true },
      name: { type: 'string' },
    },
    run: async (app, args) =>
      adminUserView(
        await app.get(UserService).create(str(args, 'org'), {
          email: str(args, 'email'),
          // The service refuses anything but admin or member.
          role: str(args, 'role') as Role,
          name: str(args, 'name') || undefined,
        }),
      ),
  },
  'user:move': {
    usage: 'user:move --email E --org ID [--role admin|member]',
    options: {
      email: { type: 'string', required: true },
      org: { type: 'string', required: true },
      role: { type: 'string' },
    },
    run: async (app, args) =>
      adminUserView(
        await app
          .get(UserService)
          .move(str(args, 'email'), str(args, 'org'), (str(args, 'role') || undefined) as Role),
      ),
  },
};
