import { CliCommand, dtoFrom, ORG_FLAG, str } from '../common/cli/cli-command';
import { OrgService } from '../org/org.service';
import { CreateUserDto } from './create-user.dto';
import { UpdateUserDto } from './update-user.dto';
import { AccountRecord } from './user-view.dto';
import { UserModule } from './user.module';
import { UserService } from './user.service';

const ROLE_HELP = 'admin or member';

/** Every command runs on UserModule: accounts and sessions, no sign-in, guards or provider. */
export const userCommands: Record<string, CliCommand> = {
  'user:add': {
    summary: 'Create an account; its first sign-in links it to the identity provider',
    usage: 'user:add --org ID --email E --role admin|member [--name N]',
    options: {
      org: ORG_FLAG,
      email: { type: 'string', required: true, help: 'the email it will sign in with' },
      role: { type: 'string', required: true, help: ROLE_HELP },
      name: { type: 'string', help: 'a display name, 1 to 200 characters' },
    },
    module: UserModule,
    prepare: async (args) => {
      const input = await dtoFrom(CreateUserDto, args, ['email', 'role', 'name']);
      return async (app) =>
        AccountRecord.from(await app.get(UserService).create(str(args, 'org'), input));
    },
  },
  'user:move': {
    summary:
      'Move an account to another organization and/or role; never leaves one without an admin',
    usage: 'user:move --email E --org ID [--role admin|member]',
    options: {
      email: { type: 'string', required: true, help: "the account's email" },
      org: { ...ORG_FLAG, help: 'the id of the organization it moves to (may be its own)' },
      role: { type: 'string', help: `${ROLE_HELP} (default: unchanged)` },
    },
    module: UserModule,
    prepare: async (args) => {
      const { role } = await dtoFrom(UpdateUserDto, args, ['role']);
      return async (app) =>
        AccountRecord.from(
          await app.get(UserService).move(str(args, 'email'), str(args, 'org'), role),
        );
    },
  },
  'user:list': {
    summary: "List an organization's accounts, oldest first",
    usage: 'user:list --org ID',
    options: { org: ORG_FLAG },
    module: UserModule,
    prepare: (args) =>
      Promise.resolve(async (app) => {
        const org = await app.get(OrgService).get(str(args, 'org'));
        const users = await app.get(UserService).list(org.id);
        return { items: users.map((u) => AccountRecord.from(u)) };
      }),
  },
};
