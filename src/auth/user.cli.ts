import { CliCommand, CliNeeds, dtoFrom, ORG_FLAG, str } from '../cli/cli-command';
import { AuditLog } from '../common/logging/audit-log';
import { Organization } from '../org/organization.entity';
import { OrgService } from '../org/org.service';
import { CreateUserDto } from './create-user.dto';
import { Session } from './session.entity';
import { SessionService } from './session.service';
import { UpdateUserDto } from './update-user.dto';
import { adminUserView } from './user-view.dto';
import { User } from './user.entity';
import { UserService } from './user.service';

/** UserService and what it calls: no sign-in, no guards, no identity provider. */
const ACCOUNTS: CliNeeds = {
  entities: [User, Session, Organization],
  providers: [UserService, SessionService, OrgService, AuditLog],
};

const ROLE_HELP = 'admin or member';

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
    needs: ACCOUNTS,
    prepare: async (args) => {
      const input = await dtoFrom(CreateUserDto, args, ['email', 'role', 'name']);
      return async (app) =>
        adminUserView(await app.get(UserService).create(str(args, 'org'), input));
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
    needs: ACCOUNTS,
    prepare: async (args) => {
      const { role } = await dtoFrom(UpdateUserDto, args, ['role']);
      return async (app) =>
        adminUserView(await app.get(UserService).move(str(args, 'email'), str(args, 'org'), role));
    },
  },
  'user:list': {
    summary: "List an organization's accounts, oldest first",
    usage: 'user:list --org ID',
    options: { org: ORG_FLAG },
    needs: ACCOUNTS,
    prepare: (args) =>
      Promise.resolve(async (app) => {
        const org = await app.get(OrgService).get(str(args, 'org'));
        return { items: (await app.get(UserService).list(org.id)).map(adminUserView) };
      }),
  },
};
