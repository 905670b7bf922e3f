import { cliActor } from '../audit/audit-event.types';
import { CliCommand, dtoFrom, ORG_FLAG, str } from '../common/cli/cli-command';
import { OrgResponse } from '../org/org-view.dto';
import { OrgService } from '../org/org.service';
import { UpdateOrgDto } from '../org/update-org.dto';
import { OrgUpdateCliModule } from './org-update-cli.module';

/**
 * `org:update`, beside PATCH /api/v1/org. It sits at the composition root, not in org/org.cli.ts,
 * because it runs with DeviceModule too: the devices' deadlines follow the threshold through the
 * listener the device feature registers with OrgService, and org/ imports no feature above it.
 */
export const orgUpdateCommands: Record<string, CliCommand> = {
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
    module: OrgUpdateCliModule,
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
