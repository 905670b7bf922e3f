import { cliActor } from '../audit/audit-event.types';
import { CliCommand, dtoFrom, ORG_FLAG, PAGE_FLAGS, str } from '../common/cli/cli-command';
import { PageQueryDto } from '../common/pagination/page-query.dto';
import { OrgListResponse, OrgResponse } from './org-view.dto';
import { OrgModule } from './org.module';
import { OrgService } from './org.service';
import { UpdateOrgDto } from './update-org.dto';

export const orgCommands: Record<string, CliCommand> = {
  'org:create': {
    summary: 'Create an organization',
    usage: 'org:create --name N',
    options: { name: { type: 'string', required: true, help: 'its name, 1 to 200 characters' } },
    module: OrgModule,
    prepare: (args) =>
      Promise.resolve(async (app) =>
        OrgResponse.from(await app.get(OrgService).create(str(args, 'name'))),
      ),
  },
  'org:list': {
    summary: 'List organizations by name, a page at a time',
    usage: 'org:list [--limit N] [--cursor C]',
    options: PAGE_FLAGS,
    module: OrgModule,
    prepare: async (args) => {
      const page = await dtoFrom(PageQueryDto, args, ['limit', 'cursor']);
      return async (app) => OrgListResponse.from(await app.get(OrgService).list(page));
    },
  },
  'org:update': {
    summary: "Set an organization's device threshold, as PATCH /api/v1/org",
    usage: 'org:update --org ID --device-offline-after-seconds N|default',
    options: {
      org: ORG_FLAG,
      'device-offline-after-seconds': {
        type: 'string',
        required: true,
        help: 'seconds without a heartbeat or token before a device is offline; default: the service default',
      },
    },
    // Run with DeviceModule too (cli/cli-commands.ts): the devices' deadlines follow the threshold
    // through the listener the device feature registers; org/ does not import device/.
    module: OrgModule,
    prepare: async (args) => {
      const given = str(args, 'device-offline-after-seconds');
      const seconds = given === 'default' ? null : /^\d{1,9}$/.test(given) ? Number(given) : given;
      const body = await dtoFrom(UpdateOrgDto, args, [], { device_offline_after_seconds: seconds });
      return async (app) => {
        const orgs = app.get(OrgService);
        const org = await orgs.get(str(args, 'org'));
        const changed = await orgs.setDeviceOfflineAfter(
          org.id,
          body.device_offline_after_seconds,
          cliActor(),
        );
        return OrgResponse.from(changed);
      };
    },
  },
};
